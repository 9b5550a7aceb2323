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
  'uploads',
  'watchlist',
  'cluster',
  'suite',
] as const;
export type Part = (typeof PARTS)[number];

/** `--only a,b` (or `--only=a,b`) and `--out file` from the command line; every part by default. */
export function benchArgs(argv: string[]): { parts: Part[]; out: string } {
  let only: string | undefined;
  let out = 'bench/results/latest.json';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--only') only = argv[++i];
    else if (arg.startsWith('--only=')) only = arg.slice('--only='.length);
    else if (arg === '--out') out = argv[++i] ?? out;
    else if (arg.startsWith('--out=')) out = arg.slice('--out='.length);
    else throw new Error(`unknown argument ${arg} (--only ${PARTS.join(',')}; --out file)`);
  }
  if (!only) return { parts: [...PARTS], out };
  const parts = only.split(',').map((part) => part.trim());
  const unknown = parts.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0 || parts.length === 0) {
    throw new Error(`unknown bench part ${unknown.join(', ')}: the parts are ${PARTS.join(', ')}`);
  }
  return { parts: PARTS.filter((part) => parts.includes(part)), out };
}
