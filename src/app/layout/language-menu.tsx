import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useIntl } from 'react-intl';
import { LocaleSelect, NATIVE_NAMES } from '../../components/locale-select';
import { useRuntime, useTenant } from '../../runtime/context';

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
      <LocaleSelect
        id={id}
        testId="language-menu"
        className="h-10 cursor-pointer appearance-none rounded-lg border border-transparent bg-transparent ps-3 pe-7 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:border-brand focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand"
      />
      <span
        aria-hidden="true"
        className="pointer-events-none absolute end-2 top-1/2 -translate-y-1/2 text-xs"
      >
        ▾
      </span>
    </div>
  );
}
