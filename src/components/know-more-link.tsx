import { FormattedMessage } from 'react-intl';
import { toSafeKnowMoreHref } from '../domain/safe-link';

/** The tenant's "know more" link (spec §3 knowMoreUrl), shown only when it is same-origin or https. */
export function KnowMoreLink({ url, className }: { url: string; className?: string }) {
  const href = toSafeKnowMoreHref(url);
  if (!href) return null;
  const external = /^https:/i.test(href);
  return (
    <a
      href={href}
      className={className ?? 'text-brand-strong underline underline-offset-2'}
      data-testid="know-more"
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      <FormattedMessage id="knowMore.link" />
    </a>
  );
}
