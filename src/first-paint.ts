// The one way from server/ into src/: what the server needs to draw a screen's first paint into the HTML (the same
// components the app renders, so the paint and the app agree), the theme of the tenant's colour, the staff
// permissions the inline script reads to know whom the paint is for, the modules a painted screen loads at start
// (its page links their files), the texts of the catalogue's first part (the page carries them), and a data screen
// drawn with the person's data (src/app/shell-data.tsx). Everything else both sides share is in contract/; Biome
// refuses any other server import of src/ (biome.json).

export { catalogueModules, screenModules } from './app/screen-modules';
export { PAINT_NOT_FOR, type Painted, paintedAt, renderShell, type ShellScreen } from './app/shell';
export { DATA_SCREENS, renderShellWithData } from './app/shell-data';
export { STAFF_PERMISSIONS } from './auth/access';
export { isFirstScreenMessage } from './i18n/first-screen';
export { catalogueTrees } from './i18n/precompile';
export { themeFromBrandColour } from './tenant/theme';
