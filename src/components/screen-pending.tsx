import { FormattedMessage } from 'react-intl';
import { Card } from './ui/card';

/**
 * A screen whose route, guard and layout exist but whose capability is built by a later issue. It says
 * so plainly instead of pretending to work.
 */
export function ScreenPending({ screen }: { screen: string }) {
  return (
    <Card data-screen={screen} className="mx-auto max-w-xl">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={`screen.${screen}`} />
      </h1>
      <p className="mt-3 text-slate-700">
        <FormattedMessage id="screen.pending" />
      </p>
    </Card>
  );
}
