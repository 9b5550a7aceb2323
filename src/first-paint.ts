// The one way from server/ into src/: what the server needs to draw a screen's first paint into the HTML (the same
// components the app renders, so the paint and the app agree), the theme of the tenant's colour, and the staff
// permissions the inline script reads to know whom the paint is for. Everything else both sides share is in
// contract/; Biome refuses any other server import of src/ (biome.json).
export { type Painted, paintedAt, renderShell, type ShellScreen } from './app/shell';
export { STAFF_PERMISSIONS } from './auth/access';
export { themeFromBrandColour } from './tenant/theme';
