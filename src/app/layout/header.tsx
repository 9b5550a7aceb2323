import { useIntl } from 'react-intl';
import { Button } from '../../components/ui/button';
import { LogoutIcon } from '../../components/ui/icons';
import { LanguageMenu } from './language-menu';
import { Logo } from './logo';
import { MainMenu } from './main-menu';
import type { MenuEntry } from './menu-entry';

export interface HeaderProps {
  menu: readonly MenuEntry[];
  /** Present when someone is signed in (spec §2: a logout button shows when authenticated). */
  onLogout?: () => void;
}

/** The portal header (spec §2): logo home, language dropdown, menu toggle, logout when signed in. */
export function AppHeader({ menu, onLogout }: HeaderProps) {
  const intl = useIntl();
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-5xl items-center gap-2 px-4">
        <Logo />
        <div className="ms-auto flex items-center gap-1">
          <LanguageMenu />
          {onLogout && (
            // On a phone the words would not fit beside the logo and the language on one line: the icon alone, its
            // name read out; from `sm` up the icon and the words, never wrapped.
            <Button
              variant="secondary"
              size="sm"
              className="whitespace-nowrap max-sm:size-11 max-sm:px-0"
              onClick={onLogout}
              data-testid="logout"
            >
              <LogoutIcon />
              <span className="max-sm:sr-only">{intl.formatMessage({ id: 'header.logout' })}</span>
            </Button>
          )}
          <MainMenu entries={menu} />
        </div>
      </div>
    </header>
  );
}

/** The onboarding header (spec §2): logo, language dropdown and a logout icon. */
export function OnboardingHeader({ onLogout }: Pick<HeaderProps, 'onLogout'>) {
  const intl = useIntl();
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-14 max-w-xl items-center gap-2 px-4">
        <Logo />
        <div className="ms-auto flex items-center gap-1">
          <LanguageMenu />
          {onLogout && (
            <Button
              variant="ghost"
              size="icon"
              onClick={onLogout}
              aria-label={intl.formatMessage({ id: 'header.logout' })}
              data-testid="logout"
            >
              <LogoutIcon />
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
