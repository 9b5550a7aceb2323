import '../styles/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { screens } from '../domain/screens';
import { RuntimeProvider } from '../runtime/context';
import { tenantFromHost } from '../tenant/resolve';
import { App } from './app';
import { createRuntime } from './runtime';

// The Silent route runs inside the hidden renewal iframe: it hands the provider's answer to the page
// that opened it and renders nothing (spec §2: Silent, the token renewal return).
function completeSilentRenewal() {
  const host = tenantFromHost(window.location.hostname);
  if (host.kind !== 'tenant') return;
  void import('../auth/oidc').then(({ completeSilentRenewal }) =>
    completeSilentRenewal({ origin: window.location.origin, realm: host.tenant, clientId: 'portal' }),
  );
}

function startPortal() {
  const runtime = createRuntime();
  runtime.start();
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root');
  createRoot(container).render(
    <StrictMode>
      <RuntimeProvider runtime={runtime}>
        <App />
      </RuntimeProvider>
    </StrictMode>,
  );
}

if (window.location.pathname === screens.Silent.path) completeSilentRenewal();
else startPortal();
