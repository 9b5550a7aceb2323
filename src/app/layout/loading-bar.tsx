import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { useRuntime } from '../../runtime/context';

/**
 * The global loading indicator: on while any request is in flight, off when it ends, errors included. It sits
 * outside the screen's landmarks (it is drawn over the header), so it lives in a status region that is always
 * there: a person moving by landmarks still meets it, and nothing is left outside a region while a request runs.
 */
export function LoadingBar() {
  const intl = useIntl();
  const busy = useSelector(useRuntime().app, (s) => s.hasTag('busy'));
  return (
    <div role="status">
      {busy && (
        <div
          role="progressbar"
          aria-label={intl.formatMessage({ id: 'common.loading' })}
          data-testid="loading-bar"
          className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-brand-soft"
        >
          <div className="h-full w-1/3 animate-[loading_1.2s_ease-in-out_infinite] bg-brand" />
        </div>
      )}
    </div>
  );
}
