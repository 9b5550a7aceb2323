import { useSelector } from '@xstate/react';
import type { LocaleCode } from '../../contract/api/settings';
import { useRuntime, useTenant } from '../runtime/context';

// Each language is named in itself, so a person who cannot read the current one still finds theirs.
export const NATIVE_NAMES: Record<LocaleCode, string> = { es: 'Español', en: 'English', eu: 'Euskara' };

/**
 * The tenant's languages as a native select bound to the app's locale (the phone's own picker, keyboard and
 * screen-reader support for free); choosing one sends locale.change. The header menu and UserProfile use it.
 */
export function LocaleSelect({ id, testId, className }: { id: string; testId: string; className: string }) {
  const { app } = useRuntime();
  const { settings } = useTenant();
  const locale = useSelector(app, (s) => s.context.locale);
  return (
    <select
      id={id}
      data-testid={testId}
      value={locale}
      onChange={(event) => app.send({ type: 'locale.change', locale: event.target.value as LocaleCode })}
      className={className}
    >
      {settings.locales.map((code) => (
        <option key={code} value={code} lang={code}>
          {NATIVE_NAMES[code]}
        </option>
      ))}
    </select>
  );
}
