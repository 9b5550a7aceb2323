import type { Config } from 'tailwindcss';

// Brand colours come from the tenant's settings at run time (src/tenant/theme.ts sets the CSS
// variables); Tailwind only names them.
export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        brand: {
          DEFAULT: 'var(--brand)',
          fg: 'var(--brand-fg)',
          soft: 'var(--brand-soft)',
          strong: 'var(--brand-strong)',
        },
      },
      fontFamily: {
        sans: ['system-ui', '-apple-system', 'Segoe UI', 'Roboto', 'Noto Sans', 'sans-serif'],
      },
    },
  },
} satisfies Config;
