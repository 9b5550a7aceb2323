// The command line of `npm run bench` (bench/run.ts): which parts to run and where the results go.

/** The parts of the bench, in the order they run; `npm run bench -- --only lighthouse,api` runs some of them. */
export const PARTS = [
  'bytes',
  'enrolment',
  'media',
  'lighthouse',
  'api',
  'engine',
  'export',
  'inp',
  'retention',
  'uploads',
  'watchlist',
  'cluster',
  'suite',
] as const;
export type Part = (typeof PARTS)[number];

export interface BenchArgs {
  parts: Part[];
  out: string;
  /** `--screens a,b`: the screens Lighthouse runs on (bench/screens.ts checks the names); every one without. */
  screens?: string[];
}

/**
 * `--only a,b` (or `--only=a,b`), `--out file` and `--screens a,b` from the command line; every part and every
 * screen by default.
 */
export function benchArgs(argv: string[]): BenchArgs {
  let only: string | undefined;
  let out = 'bench/results/latest.json';
  let screenList: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--only') only = argv[++i];
    else if (arg.startsWith('--only=')) only = arg.slice('--only='.length);
    else if (arg === '--out') out = argv[++i] ?? out;
    else if (arg.startsWith('--out=')) out = arg.slice('--out='.length);
    else if (arg === '--screens') screenList = argv[++i] ?? '';
    else if (arg.startsWith('--screens=')) screenList = arg.slice('--screens='.length);
    else throw new Error(`unknown argument ${arg} (--only ${PARTS.join(',')}; --out file; --screens A,B)`);
  }
  const screens = screenList?.split(',').map((screen) => screen.trim());
  if (screens?.some((screen) => screen === ''))
    throw new Error('--screens wants screen names: --screens UserHome,MyVisits');
  if (!only) return { parts: [...PARTS], out, screens };
  const parts = only.split(',').map((part) => part.trim());
  const unknown = parts.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0 || parts.length === 0) {
    throw new Error(`unknown bench part ${unknown.join(', ')}: the parts are ${PARTS.join(', ')}`);
  }
  return { parts: PARTS.filter((part) => parts.includes(part)), out, screens };
}
