import { FormattedMessage } from 'react-intl';
import { browserTimeZone } from '../../contract/domain/visits';
import { Button } from './ui/button';

/**
 * A list's date presets (spec §9) as a group of toggle buttons, the applied one pressed. Each preset's label is
 * the message `${messagePrefix}${preset}`. The days are the tenant's (`timeZone`); when the browser is in another
 * zone the group says which zone its days are counted in.
 */
export function PresetButtons<P extends string>({
  legendId,
  testId,
  presets,
  messagePrefix,
  applied,
  timeZone,
  onPick,
}: {
  legendId: string;
  testId: string;
  presets: readonly P[];
  messagePrefix: string;
  applied: P | undefined;
  timeZone?: string;
  onPick: (preset: P) => void;
}) {
  return (
    <fieldset className="mt-4">
      <legend className="text-sm font-medium text-slate-800">
        <FormattedMessage id={legendId} />
      </legend>
      <div className="mt-2 flex flex-wrap gap-2" data-testid={testId}>
        {presets.map((preset) => (
          <Button
            key={preset}
            size="sm"
            variant={applied === preset ? 'primary' : 'secondary'}
            aria-pressed={applied === preset}
            data-preset={preset}
            onClick={() => onPick(preset)}
          >
            <FormattedMessage id={`${messagePrefix}${preset}`} />
          </Button>
        ))}
      </div>
      {timeZone && timeZone !== browserTimeZone() && (
        <p className="mt-1 text-sm text-slate-700" data-testid={`${testId}-zone`}>
          <FormattedMessage id="list.presets.zone" values={{ zone: timeZone }} />
        </p>
      )}
    </fieldset>
  );
}
