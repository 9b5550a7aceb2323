// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { useActorRef, useSelector } from '@xstate/react';
import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { fromPromise } from './promise';

// How every page screen starts its machine (useScreenMachine gives the logic, useActorRef starts it), with a call
// that behaves as the API client does: it rejects as soon as its signal is aborted.
const load = fromPromise<string>(
  ({ signal }) =>
    new Promise((resolve, reject) => {
      const abort = () => reject(new DOMException('Aborted', 'AbortError'));
      if (signal.aborted) abort();
      signal.addEventListener('abort', abort);
      setTimeout(() => resolve('loaded'));
    }),
);

const loadingMachine = setup({ actors: { load } }).createMachine({
  initial: 'loading',
  states: {
    loading: { invoke: { src: 'load', onDone: 'ready', onError: 'failed' } },
    ready: {},
    failed: {},
  },
});

function Screen() {
  const actor = useActorRef(loadingMachine);
  return <p data-testid="state">{useSelector(actor, (s) => String(s.value))}</p>;
}

// AuditAccesses starts its facilities' call on its own, without a machine around it.
function Call() {
  const actor = useActorRef(load);
  return <p data-testid="state">{useSelector(actor, (s) => s.output ?? s.status)}</p>;
}

describe('fromPromise', () => {
  it('lets a screen under StrictMode load, though its first call was aborted by the simulated unmount', async () => {
    render(
      <StrictMode>
        <Screen />
      </StrictMode>,
    );
    expect(screen.getByTestId('state')).toHaveTextContent('loading');
    expect(await screen.findByText('ready')).toBeInTheDocument();
  });

  it('lets a call a screen starts on its own answer under StrictMode', async () => {
    render(
      <StrictMode>
        <Call />
      </StrictMode>,
    );
    expect(await screen.findByText('loaded')).toBeInTheDocument();
  });
});
