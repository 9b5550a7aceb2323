import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import type { LocaleCode } from '../../api/contract/settings';
import { useRuntime, useTenant } from '../../runtime/context';

// Each language is named in itself, so a person who cannot read the current one still finds theirs.
const NATIVE_NAMES: Record<LocaleCode, string> = { es: 'Español', en: 'English', eu: 'Euskara' };

/**
 * The language dropdown, shown only when the tenant offers more than one language (spec §2). A native
 * select: the phone's own picker, keyboard and screen-reader support for free, and no script to load.
 */
export function LanguageMenu() {
  const intl = useIntl();
  const id = useId();
  const { app } = useRuntime();
  const { settings } = useTenant();
  const locale = useSelector(app, (s) => s.context.locale);
  if (settings.locales.length < 2) return null;
  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        {intl.formatMessage({ id: 'header.language' }, { language: NATIVE_NAMES[locale] })}
      </label>
      <select
        id={id}
        data-testid="language-menu"
        value={locale}
        onChange={(event) => app.send({ type: 'locale.change', locale: event.target.value as LocaleCode })}
        className="h-10 cursor-pointer appearance-none rounded-lg border border-transparent bg-transparent ps-3 pe-7 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:border-brand focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand"
      >
        {settings.locales.map((code) => (
          <option key={code} value={code} lang={code}>
            {NATIVE_NAMES[code]}
          </option>
        ))}
      </select>
      <span
        aria-hidden="true"
        className="pointer-events-none absolute end-2 top-1/2 -translate-y-1/2 text-xs"
      >
        ▾
      </span>
    </div>
  );
}
