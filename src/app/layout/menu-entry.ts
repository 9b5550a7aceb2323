/** One entry of the header menu (spec §2 menu items), already filtered by the person's rights. */
export interface MenuEntry {
  id: string;
  href: string;
  messageId: string;
}
