// Landing's default picture (a tenant may name its own: customImages.landing), as the data URI the build made of the
// former landing.svg: a module, so that the server can draw Landing's first paint with it too.
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 160"><rect x="20" y="30" width="120" height="80" rx="10" fill="#e7eeff" stroke="#0D55FF" stroke-width="3"/><circle cx="55" cy="65" r="14" fill="#0D55FF"/><rect x="80" y="55" width="45" height="6" rx="3" fill="#0D55FF"/><rect x="80" y="70" width="35" height="6" rx="3" fill="#9bb5ff"/><rect x="155" y="20" width="66" height="120" rx="12" fill="#fff" stroke="#0B1B3F" stroke-width="3"/><circle cx="188" cy="70" r="18" fill="#e7eeff" stroke="#0D55FF" stroke-width="3"/><path d="M174 110c4-9 9-13 14-13s10 4 14 13" stroke="#0D55FF" stroke-width="3" fill="none"/></svg>';

export const LANDING_IMAGE = `data:image/svg+xml,${encodeURIComponent(SVG)}`;
