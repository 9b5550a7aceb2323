import { createRequire } from 'node:module';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compileHints } from './scripts/vite-compile-hints.ts';
import { precompress } from './scripts/vite-precompress.ts';
import { type CataloguePart, catalogueTrees } from './src/i18n/precompile.ts';

// In development the reference server (API, identity provider, mailbox) runs on API_PORT and Vite
// proxies to it, so the browser still sees one origin on PORT.
const apiPort = Number(process.env.API_PORT ?? 8081);
const apiTarget = `http://127.0.0.1:${apiPort}`;

// The descriptions of the statecharts are for the Stately visualizer (QA reads them there); the production
// bundle leaves them out.
const dropMachineDescriptions: Plugin = {
  name: 'drop-machine-descriptions',
  apply: 'build',
  enforce: 'pre',
  transform(code, id) {
    if (!/\/machines\/[\w-]+\.machine\.ts$/.test(id)) return null;
    return { code: code.replace(/\bdescription:\s*'(?:[^'\\\n]|\\.)*',/g, ''), map: null };
  },
};

// arktype asks at load whether eval works (`new Function("return false")`, @ark/util's envHasCsp) and compiles
// its validators only if so. The portal's CSP has no 'unsafe-eval', so in the browser the answer is always no:
// the bundle is given that answer instead of a probe that the CSP reports as a violation. arktype then validates
// without compiling (its `jitless` mode), which is what it would have chosen after the failed probe.
const arktypeWithoutEvalProbe: Plugin = {
  name: 'arktype-without-eval-probe',
  apply: 'build',
  transform(code, id) {
    if (!/\/@ark\/util\/out\/functions\.js$/.test(id)) return null;
    const probe = 'return new Function("return false")();';
    if (!code.includes(probe)) this.error('@ark/util changed its eval probe (envHasCsp): update this plugin');
    return { code: code.replace(probe, 'return true;'), map: null };
  },
};

// The portal's catalogues (src/i18n/messages/*.json) are parsed at build time into ICU syntax trees, which
// react-intl formats as they are: the bundle leaves out the message parser (intl-messageformat and
// @formatjs/intl get its parser-less twin), and no text is parsed on the phone. A tenant's own overrides are
// strings; src/i18n/catalogue.ts loads the parser for them, only when a tenant has some.
const require = createRequire(import.meta.url);
const parserlessIcu = require.resolve('@formatjs/icu-messageformat-parser/no-parser.js');
const precompiledMessages: Plugin = {
  name: 'precompiled-messages',
  apply: 'build',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source !== '@formatjs/icu-messageformat-parser' || !importer) return null;
    return /\/node_modules\/(intl-messageformat|@formatjs\/intl)\//.test(importer) ? parserlessIcu : null;
  },
  transform(code, id) {
    // `?first` is the part the first screens draw, `?rest` the others (src/i18n/first-screen.ts); in dev and
    // tests, where this plugin does not run, both are the whole catalogue.
    const match = /\/src\/i18n\/messages\/[a-z]{2}\.json(?:\?(first|rest))?$/.exec(id);
    if (!match) return null;
    const part = match[1] as CataloguePart | undefined;
    const trees = catalogueTrees(JSON.parse(code) as Record<string, string>, part);
    // A part is no `.json` file to the bundler: it gets a module.
    if (part) return { code: `export default ${JSON.stringify(trees)};`, map: null, moduleType: 'js' };
    return { code: JSON.stringify(trees), map: null };
  },
};

// react-intl's createIntl asks Intl.NumberFormat and Intl.DateTimeFormat whether they have data for the locale,
// only to warn when not. The first such question loads the browser's locale data (100–300 ms on a phone) in the
// task that draws the first screen, which otherwise formats no number nor date. The portal's languages (es, en,
// eu) are in every browser it supports, so the bundle leaves the question out; the data loads when a screen
// first formats a number or a date.
const intlWithoutLocaleDataCheck: Plugin = {
  name: 'intl-without-locale-data-check',
  apply: 'build',
  transform(code, id) {
    if (!/\/node_modules\/@formatjs\/intl\/index\.js$/.test(id)) return null;
    const checks =
      /else if \(!Intl\.(NumberFormat|DateTimeFormat)\.supportedLocalesOf\(locale\)\.length && onError\)/g;
    if ((code.match(checks) ?? []).length !== 2) {
      this.error('@formatjs/intl changed its locale data check (createIntl): update this plugin');
    }
    return { code: code.replace(checks, 'else if (false)'), map: null };
  },
};

// intl-messageformat does the same for every message it is given: `resolveLocale` asks
// Intl.NumberFormat.supportedLocalesOf, whose first call loads the same locale data (~70 ms at 4× CPU in Landing's
// first render). The portal's languages are known to be supported; the locale is taken as given.
const messageFormatWithoutLocaleDataCheck: Plugin = {
  name: 'message-format-without-locale-data-check',
  apply: 'build',
  transform(code, id) {
    if (!/\/node_modules\/intl-messageformat\/index\.js$/.test(id)) return null;
    const check =
      /const supportedLocales = Intl\.NumberFormat\.supportedLocalesOf\(locales\);\s*if \(supportedLocales\.length > 0\) return new Intl\.Locale\(supportedLocales\[0\]\);/;
    if (!check.test(code)) {
      this.error('intl-messageformat changed its locale check (resolveLocale): update this plugin');
    }
    return { code: code.replace(check, ''), map: null };
  },
};

// Landing's small shared modules (fields, dates, email, API errors, know-more, the screen mirror, where an enrolment
// is kept, the runtime's context: left out, it became a file of its own on every page). Some of them are the
// enrolment frame's, which Landing no longer loads, but without them here the bundler splits the shared React, xstate
// and react-intl code into more files for every screen.
const FIRST_SCREEN_SHARED =
  /\/(src\/(components\/ui\/field|components\/know-more-link|runtime\/(screen-mirror|enrolment-storage|context))|contract\/domain\/email)\.tsx?$/;

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    dropMachineDescriptions,
    arktypeWithoutEvalProbe,
    precompiledMessages,
    intlWithoutLocaleDataCheck,
    messageFormatWithoutLocaleDataCheck,
    compileHints(),
    precompress(),
  ],
  resolve: {
    alias: [
      // React 19 has useSyncExternalStore: the shims for the Reacts before it that @xstate/react and wouter import
      // (which would fall back to it anyway) give way to the package's own entries that call React's.
      {
        find: /^use-sync-external-store\/shim(?:\/index)?(\/with-selector)?(?:\.js)?$/,
        replacement: 'use-sync-external-store$1',
      },
    ],
  },
  // The API's answers are checked with arktype in a worker (src/api/answer-check.worker.ts), under the same CSP.
  worker: { plugins: () => [arktypeWithoutEvalProbe] },
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: which files each module became, for the server to link a painted screen's files
    // from its page (server/screen-preloads.ts). The server never serves it (no dot-folder of dist is served).
    manifest: true,
    chunkSizeWarningLimit: 300,
    rollupOptions: {
      output: {
        // Every file a phone fetches carries its own headers and compression overhead. The small modules Landing
        // draws with (and other screens share) travel as one file instead of six.
        manualChunks(id) {
          return FIRST_SCREEN_SHARED.test(id) ? 'first-screen' : undefined;
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 8080),
    strictPort: true,
    allowedHosts: ['.localhost', 'localhost'],
    // The Host header is kept (changeOrigin off): the identity provider's issuer is the origin the browser
    // uses, localhost:8080 or demo.localhost:8080, not the server's own port.
    proxy: Object.fromEntries(
      ['/api', '/auth', '/dev', '/health'].map((path) => [path, { target: apiTarget, changeOrigin: false }]),
    ),
  },
});
