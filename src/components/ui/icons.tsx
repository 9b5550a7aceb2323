// Inline icons: a handful of paths are cheaper than an icon library in the first screen's JavaScript.
const common = {
  width: 24,
  height: 24,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

export const MenuIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M4 6h16M4 12h16M4 18h16" />
  </svg>
);

export const LogoutIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
  </svg>
);

export const CloseIcon = () => (
  <svg {...common} aria-hidden="true">
    <path d="M18 6 6 18M6 6l12 12" />
  </svg>
);
