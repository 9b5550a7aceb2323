import { useSelector } from '@xstate/react';
import { FormattedMessage } from 'react-intl';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useRuntime } from '../../runtime/context';

/**
 * The tenant could not be loaded (spec §1): say which problem, never a broken page. English defaults
 * stand in when not even the portal's texts could be downloaded.
 */
export function TenantErrorScreen() {
  const problem = useSelector(useRuntime().app, (s) => s.context.problem);
  const kind = problem?.kind ?? 'unreachable';
  const values = {
    label: problem?.kind === 'invalid-label' ? problem.label : '',
    tenant: problem && 'tenant' in problem ? problem.tenant : '',
    summary: problem?.kind === 'invalid-settings' ? problem.summary : '',
  };
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl items-center px-4">
      <Card role="alert" data-testid="tenant-error" data-problem={kind} className="w-full">
        <h1 className="text-2xl font-semibold">
          <FormattedMessage id="tenant.error.title" defaultMessage="This portal is not available" />
        </h1>
        <p className="mt-3 text-slate-700">
          <FormattedMessage id={`tenant.error.${kind}`} defaultMessage={`Problem: ${kind}`} values={values} />
        </p>
        {kind === 'invalid-settings' && (
          <pre className="mt-4 overflow-x-auto whitespace-pre-wrap rounded-lg bg-slate-100 p-3 text-sm">
            {values.summary}
          </pre>
        )}
        <Button className="mt-6" onClick={() => window.location.reload()}>
          <FormattedMessage id="tenant.error.retry" defaultMessage="Try again" />
        </Button>
      </Card>
    </main>
  );
}
