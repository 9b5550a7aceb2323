import { FormattedMessage } from 'react-intl';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';

/** A part of the application did not arrive within 120 s (spec §8). */
export function ChunkTimeoutScreen() {
  return (
    <Card role="alert" data-testid="chunk-timeout" className="mx-auto max-w-xl">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="chunk.timeout.title" />
      </h1>
      <p className="mt-3 text-slate-700">
        <FormattedMessage id="chunk.timeout.body" />
      </p>
      <Button className="mt-6" onClick={() => window.location.reload()}>
        <FormattedMessage id="chunk.timeout.reload" />
      </Button>
    </Card>
  );
}
