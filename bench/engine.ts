// The reference biometric engine's cost per enrolment: a document + selfie result (the passport page read and
// its portrait compared with the selfie), median of 5 runs after the warm-up (the models' one load and a
// judgement of its own, server/onboarding/reference/warm-up.ts), and the first of them alone. Then its verdicts
// on the fixture set (good documents, and bad ones: a check that fails, no face, another person): how many good
// ones it refuses (false rejections) and how many bad ones it accepts (false acceptances, which must be 0).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { EngineImage } from '../server/onboarding/engine';
import { referenceEngine } from '../server/onboarding/reference/engine';
import { closeOcr } from '../server/onboarding/reference/mrz';
import { CHECK_SPECIMENS_DIR } from '../server/onboarding/testing/make-check-specimens';
import { SPECIMENS_DIR } from '../server/onboarding/testing/make-specimens';

export const ENGINE_BUDGET_MS = 3000;

export interface EngineBench {
  warmUpMs: number;
  /** The first run after the warm-up: the first person's judgement. */
  firstMs: number;
  runsMs: number[];
  median: number;
  verdicts: EngineVerdicts;
}

/** One document + selfie of the fixture set, and whether a careful engine accepts it. */
interface VerdictCase {
  name: string;
  documentType: 'passport' | 'id_card';
  documentCountry: string;
  obverse: string;
  reverse?: string;
  selfie: string;
  good: boolean;
}

/** The camera card shows both sides at once: its back is another shot of it (another encoding, other bytes). */
const ANOTHER_SHOT = '#another-shot';

export interface EngineVerdicts {
  cases: { name: string; good: boolean; accepted: boolean; answer: string }[];
  good: number;
  bad: number;
  /** Good documents refused. */
  falseRejections: number;
  /** Bad documents (a failing check, no face, another person) accepted: must be 0. */
  falseAcceptances: number;
}

const GENERATED_DIR = join(SPECIMENS_DIR, '..', 'generated');
const A = (name: string) => join(SPECIMENS_DIR, name);
const C = (name: string) => join(CHECK_SPECIMENS_DIR, name);
const G = (name: string) => join(GENERATED_DIR, name);

/**
 * The fixture set: the specimens (person A) and the check specimens (person C, make-check-specimens.ts), as
 * drawn and, when `npm run fixtures` has made them, as a phone photographs them on a table.
 */
function verdictCases(): VerdictCase[] {
  const passport = (name: string, obverse: string, selfie: string, good: boolean): VerdictCase => ({
    name,
    documentType: 'passport',
    documentCountry: 'XX',
    obverse,
    selfie,
    good,
  });
  const card = (
    name: string,
    obverse: string,
    reverse: string,
    selfie: string,
    good: boolean,
  ): VerdictCase => ({
    name,
    documentType: 'id_card',
    documentCountry: 'ES',
    obverse,
    reverse,
    selfie,
    good,
  });
  const cases: VerdictCase[] = [
    passport('A passport', A('passport.jpg'), A('selfie.jpg'), true),
    card('A ID card', A('id-card-front.jpg'), A('id-card-back.jpg'), A('selfie.jpg'), true),
    card('A camera card', A('camera-card.jpg'), A('camera-card.jpg') + ANOTHER_SHOT, A('selfie.jpg'), true),
    passport('C passport', C('passport.jpg'), C('selfie.jpg'), true),
    card('C ID card', C('id-card-front.jpg'), C('id-card-back.jpg'), C('selfie.jpg'), true),
    passport(
      'A passport, birth date check digit wrong',
      A('passport-broken-check.jpg'),
      A('selfie.jpg'),
      false,
    ),
    card(
      'A ID card, birth date check digit wrong',
      A('id-card-front.jpg'),
      A('id-card-back-broken-check.jpg'),
      A('selfie.jpg'),
      false,
    ),
    passport('A passport, another person’s selfie', A('passport.jpg'), A('selfie-other.jpg'), false),
    passport('C passport, A’s selfie', C('passport.jpg'), A('selfie.jpg'), false),
    ...(['document-number', 'birth-date', 'expiry-date', 'personal-number', 'composite'] as const).map(
      (bad) =>
        passport(
          `C passport, ${bad.replace('-', ' ')} check digit wrong`,
          C(`passport-bad-${bad}.jpg`),
          C('selfie.jpg'),
          false,
        ),
    ),
    passport(
      'C passport, DNI letter misread (J as 5)',
      C('passport-dni-misread.jpg'),
      C('selfie.jpg'),
      false,
    ),
    card(
      'C ID card, DNI letter wrong',
      C('id-card-front.jpg'),
      C('id-card-back-dni-letter.jpg'),
      C('selfie.jpg'),
      false,
    ),
    passport('C passport, no face in the portrait', C('passport-no-face.jpg'), C('selfie.jpg'), false),
  ];
  const photos: VerdictCase[] = [
    passport('A passport, phone photo', G('passport.jpg'), G('selfie.jpg'), true),
    card(
      'A camera card, phone photo',
      G('document.jpg'),
      G('document.jpg') + ANOTHER_SHOT,
      G('selfie.jpg'),
      true,
    ),
    passport('C passport, phone photo', G('check-passport.jpg'), G('check-selfie.jpg'), true),
    passport(
      'C passport, document number check digit wrong, phone photo',
      G('check-passport-bad-document-number.jpg'),
      G('check-selfie.jpg'),
      false,
    ),
    passport(
      'C passport, no face, phone photo',
      G('check-passport-no-face.jpg'),
      G('check-selfie.jpg'),
      false,
    ),
  ];
  return [...cases, ...photos.filter((c) => [c.obverse, c.selfie].every((file) => existsSync(file)))];
}

const fileImage = (kind: EngineImage['kind'], path: string): EngineImage => ({
  kind,
  bytes: new Uint8Array(readFileSync(path)),
  sharpness: { score: 100, blurred: false },
});

/** Every case judged as the server judges a portrayal: the document first, then the faces. */
export async function judgeVerdicts(): Promise<EngineVerdicts> {
  const cases: EngineVerdicts['cases'] = [];
  for (const c of verdictCases()) {
    const obverse = fileImage('obverse', c.obverse);
    let reverse = c.reverse ? fileImage('reverse', c.reverse.replace(ANOTHER_SHOT, '')) : undefined;
    if (reverse && c.reverse?.endsWith(ANOTHER_SHOT)) {
      const bytes = await sharp(reverse.bytes).jpeg({ quality: 85 }).toBuffer();
      reverse = { ...reverse, bytes: new Uint8Array(bytes) };
    }
    const document = await referenceEngine.analyseDocument({
      documentType: c.documentType,
      documentCountry: c.documentCountry,
      obverse,
      reverse,
    });
    let answer: string;
    let accepted = false;
    if (!document.ok) {
      answer = `${document.error}${document.check ? ` (${document.check.field} ${document.check.rule})` : ''}`;
    } else {
      const faces = await referenceEngine.compareFaces({
        selfie: fileImage('selfie', c.selfie),
        document: reverse ? [obverse, reverse] : [obverse],
        documentType: c.documentType,
      });
      if (!faces.ok) {
        answer = `${faces.error}${faces.check ? ` (${faces.check.field} ${faces.check.rule})` : ''}`;
      } else {
        accepted = faces.score_biometry_valid === true;
        answer = accepted
          ? `accepted (face ${faces.score_biometry})`
          : `face_mismatch (${faces.score_biometry})`;
      }
    }
    cases.push({ name: c.name, good: c.good, accepted, answer });
  }
  return {
    cases,
    good: cases.filter((c) => c.good).length,
    bad: cases.filter((c) => !c.good).length,
    falseRejections: cases.filter((c) => c.good && !c.accepted).length,
    falseAcceptances: cases.filter((c) => !c.good && c.accepted).length,
  };
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
  let verdicts: EngineVerdicts = { cases: [], good: 0, bad: 0, falseRejections: 0, falseAcceptances: 0 };
  try {
    for (let run = 0; run < runs; run++) {
      const t0 = performance.now();
      const document = await referenceEngine.analyseDocument({
        documentType: 'passport',
        documentCountry: 'XX',
        obverse: passport,
        reverse: undefined,
      });
      const faces = await referenceEngine.compareFaces({
        selfie,
        document: [passport],
        documentType: 'passport',
      });
      runsMs.push(performance.now() - t0);
      if (!document.ok || !faces.ok || faces.score_biometry_valid !== true) {
        throw new Error(`unexpected engine answer: ${JSON.stringify({ document, faces })}`);
      }
    }
    verdicts = await judgeVerdicts();
  } finally {
    await closeOcr();
  }
  const sorted = [...runsMs].sort((a, b) => a - b);
  return {
    warmUpMs,
    firstMs: runsMs[0] ?? 0,
    runsMs,
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    verdicts,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchEngine();
  console.log(
    result.verdicts.cases
      .map(
        (c) => `${c.good ? 'good' : 'bad '} ${c.accepted ? 'ACCEPTED' : 'refused '} ${c.name}: ${c.answer}`,
      )
      .join('\n'),
  );
  console.log(
    `engine verdicts: ${result.verdicts.falseRejections} of ${result.verdicts.good} good documents refused (false rejections), ${result.verdicts.falseAcceptances} of ${result.verdicts.bad} bad ones accepted (false acceptances)`,
  );
  console.log(
    `engine: warm-up ${result.warmUpMs.toFixed(0)} ms; first ${result.firstMs.toFixed(0)} ms; document + selfie ${result.runsMs.map((ms) => ms.toFixed(0)).join(', ')} ms; median ${result.median.toFixed(0)} ms (budget ${ENGINE_BUDGET_MS} ms)`,
  );
}
