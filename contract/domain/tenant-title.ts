// The tenant's title in the active language (spec §3 settings `title`; `titles` per language): the plain `title`
// stays the fallback for a language the tenant has not translated it to, and for older settings.
export interface TitledSettings {
  title: string;
  titles?: Partial<Record<string, string>>;
}

export function tenantTitle(settings: TitledSettings, locale: string): string {
  const translated = settings.titles?.[locale];
  return typeof translated === 'string' && translated.length > 0 ? translated : settings.title;
}
