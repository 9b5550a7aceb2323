// The reference biometric engine's cost per enrolment (issue 14): a document + selfie result (the passport
// page read and its portrait compared with the selfie), median of 5 runs after the warm-up (the models' one
// load and a judgement of its own, server/onboarding/reference/warm-up.ts), and the first of them alone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineImage } from '../server/onboarding/engine';
import { referenceEngine } from '../server/onboarding/reference/engine';
import { closeOcr } from '../server/onboarding/reference/mrz';
import { SPECIMENS_DIR } from '../server/onboarding/testing/make-specimens';

export const ENGINE_BUDGET_MS = 3000;

export interface EngineBench {
  warmUpMs: number;
  /** The first run after the warm-up: the first person's judgement. */
  firstMs: number;
  runsMs: number[];
  median: number;
}

const image = (kind: EngineImage['kind'], name: string): EngineImage => ({
  kind,
  bytes: new Uint8Array(readFileSync(join(SPECIMENS_DIR, name))),
  sharpness: { score: 100, blurred: false },
});

export async function benchEngine(runs = 5): Promise<EngineBench> {
  const started = performance.now();
  await referenceEngine.warmUp?.();
  const warmUpMs = performance.now() - started;
  const passport = image('obverse', 'passport.jpg');
  const selfie = image('selfie', 'selfie.jpg');
  const runsMs: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const t0 = performance.now();
      const document = await referenceEngine.analyseDocument({
        documentType: 'passport',
        documentCountry: 'XX',
        obverse: passport,
        reverse: undefined,
      });
      const faces = await referenceEngine.compareFaces({ selfie, document: [passport] });
      runsMs.push(performance.now() - t0);
      if (!document.ok || !faces.ok || faces.score_biometry_valid !== true) {
        throw new Error(`unexpected engine answer: ${JSON.stringify({ document, faces })}`);
      }
    }
  } finally {
    await closeOcr();
  }
  const sorted = [...runsMs].sort((a, b) => a - b);
  return { warmUpMs, firstMs: runsMs[0] ?? 0, runsMs, median: sorted[Math.floor(sorted.length / 2)] ?? 0 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchEngine();
  console.log(
    `engine: warm-up ${result.warmUpMs.toFixed(0)} ms; first ${result.firstMs.toFixed(0)} ms; document + selfie ${result.runsMs.map((ms) => ms.toFixed(0)).join(', ')} ms; median ${result.median.toFixed(0)} ms (budget ${ENGINE_BUDGET_MS} ms)`,
  );
}
