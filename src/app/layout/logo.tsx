import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import { tenantTitle } from '../../../contract/domain/tenant-title';
import { useTenant } from '../../runtime/context';

export function Logo() {
  const intl = useIntl();
  const { settings } = useTenant();
  return (
    <Link
      href="/"
      className="flex items-center rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand"
      aria-label={intl.formatMessage({ id: 'header.home' }, { title: tenantTitle(settings, intl.locale) })}
    >
      <img
        src={`${settings.assetsUrl}/${settings.theme.logo}`}
        alt=""
        data-testid="tenant-logo"
        className="h-9 w-auto"
        width={162}
        height={36}
      />
    </Link>
  );
}
