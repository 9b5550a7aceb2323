/** Text made safe inside HTML: element content and quoted attribute values (the server-rendered pages). */
export function esc(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
