// The liveness proof judged against the selfie (issue 14: "the same person across frames and as the selfie"),
// with the engine's own functions on real faces: person A of the liveness fixture (scripts/fixtures/head-turns.mjs,
// face-api's demo/sample3.jpg) turning and tilting, her selfie (tests/fixtures/generated/selfie.jpg), and every
// other person of face-api's sample photographs framed, turned and tilted the same way.
//
// Measured (similarity = 1 − descriptor distance, a deterministic model on fixed photographs):
// - A's poses against her selfie: 0.57 (tilted down) to 0.72 (turned right); her resting face 0.9 and above.
// - 18 other people against A's selfie: resting 0.20–0.39, turned or tilted 0.19–0.46.
// So LIVENESS_SAME_PERSON (0.4) on every frame alone lets another person's turned head through now and then;
// the best frame at FACE_MATCH_THRESHOLD (0.5) does not: no other person's frame reaches it, and every frame of A
// passes it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { poseJpegs, tilt, turn, WIDTH, warp } from '../../../scripts/fixtures/head-turns.mjs';
import { FACE_MATCH_THRESHOLD, judgeLiveness, LIVENESS_SAME_PERSON, referenceEngine } from './engine';
import { type Face, facesIn, loadFaceModels, similarity } from './faces';
import { faceOf, framedFaces, TIP } from './sample-faces';

const GENERATED = join(__dirname, '..', '..', '..', 'tests', 'fixtures', 'generated');
const generated = (name: string) => readFileSync(join(GENERATED, name));

type Pose = 'neutral' | 'left' | 'right' | 'up' | 'down';
const A = {} as Record<Pose, Face>;
let jpegs: Record<Pose, Buffer>;
let selfieA: Face;
let selfieB: Face;
/** Other people's resting, turned left, tilted up and turned right faces (one the detector loses is left out). */
const others: { name: string; frames: Face[] }[] = [];

const one = async (bytes: Uint8Array): Promise<Face> => {
  const [face, ...more] = await facesIn(bytes);
  if (!face || more.length > 0) throw new Error('expected one face');
  return face;
};

beforeAll(async () => {
  await loadFaceModels();
  jpegs = (await poseJpegs()) as Record<Pose, Buffer>;
  for (const pose of Object.keys(jpegs) as Pose[]) A[pose] = await one(jpegs[pose]);
  selfieA = await one(generated('selfie.jpg'));
  selfieB = await one(generated('selfie-other.jpg'));
  for (const { name, rgb } of await framedFaces()) {
    const frames = [
      await faceOf(rgb),
      await faceOf(warp(rgb, turn('left', TIP.x / WIDTH))),
      await faceOf(warp(rgb, tilt(22, TIP))),
      await faceOf(warp(rgb, turn('right', TIP.x / WIDTH))),
    ].filter((face): face is Face => face !== undefined);
    // Person A is in sample3 too: she is not another person.
    if (frames[0] && similarity(frames[0].descriptor, selfieA.descriptor) >= 0.8) continue;
    if (frames.length === 4) others.push({ name, frames });
  }
}, 300_000);

const actions = ['turn_left', 'look_up', 'turn_right'];

describe('the liveness proof against the selfie', () => {
  it("passes A's own turns and tilts against her selfie, every frame above both thresholds", () => {
    const frames = [A.left, A.up, A.right];
    expect(judgeLiveness(frames, actions, selfieA)).toMatchObject({ result: 'passing' });
    for (const pose of ['left', 'right', 'up', 'down'] as Pose[]) {
      expect(similarity(A[pose].descriptor, selfieA.descriptor), pose).toBeGreaterThanOrEqual(
        FACE_MATCH_THRESHOLD,
      );
    }
  });

  it("fails A's proof against another person's selfie, naming the frame", () => {
    const verdict = judgeLiveness([A.left, A.up, A.right], actions, selfieB);
    expect(verdict.result).toBe('failing');
    expect(verdict.detail).toMatch(/^Frame 1 shows another person than the selfie/);
  });

  it("fails every other person's turning and tilting against A's selfie", () => {
    expect(others.length).toBeGreaterThanOrEqual(15);
    const scores: number[] = [];
    for (const { name, frames } of others) {
      const [rest, left, up] = frames as [Face, Face, Face, Face];
      expect(judgeLiveness([left, up, rest], ['turn_left', 'look_up', 'blink'], selfieA).result, name).toBe(
        'failing',
      );
      scores.push(...frames.map((face) => similarity(face.descriptor, selfieA.descriptor)));
    }
    // The per-frame bound alone would not have done it: some of them reach LIVENESS_SAME_PERSON.
    expect(Math.max(...scores)).toBeGreaterThanOrEqual(LIVENESS_SAME_PERSON);
    expect(Math.max(...scores)).toBeLessThan(FACE_MATCH_THRESHOLD);
  });

  it("without a selfie, a frontal frame (blink, smile) is the person: another person's moves after it fail", () => {
    // The portal's TakeSelfieAlive sends no selfie apart; challenges start with a frontal action when they may,
    // and its frame is the selfie compared with the document. Person A at the camera, someone else moving.
    for (const { name, frames } of others) {
      const [, left, up] = frames as [Face, Face, Face, Face];
      const verdict = judgeLiveness([A.neutral, left, up], ['blink', 'turn_left', 'look_up']);
      expect(verdict.result, name).toBe('failing');
    }
    expect(judgeLiveness([A.neutral, A.left, A.up], ['blink', 'turn_left', 'look_up']).result).toBe(
      'passing',
    );
  });

  it("without a selfie, the frontal-frame rule keeps each other person's own turns as theirs", () => {
    // Each person's best turn against their own frontal frame: 0.58–0.79 on these faces but one (0.496, whose
    // other turn is 0.34 and fails LIVENESS_SAME_PERSON already). The rule asks no more than the selfie's match.
    const best = others.map(({ frames }) => {
      const [rest, left, , right] = frames as [Face, Face, Face, Face];
      return Math.max(
        similarity(rest.descriptor, left.descriptor),
        similarity(rest.descriptor, right.descriptor),
      );
    });
    expect(best.filter((score) => score >= FACE_MATCH_THRESHOLD).length).toBeGreaterThanOrEqual(
      others.length - 1,
    );
  });

  it('without a selfie or a frontal action, keeps judging the frames among themselves', () => {
    expect(judgeLiveness([A.left, A.up, A.right], actions)).toMatchObject({ result: 'passing' });
    const mixed = judgeLiveness([A.left, selfieB, A.right], ['turn_left', 'look_up', 'turn_right']);
    expect(mixed.result).toBe('failing');
    expect(mixed.detail).toMatch(/shows another person/);
  });

  it('the engine takes the selfie from its input, and judges the proof alone when the selfie has no face', async () => {
    const frame = (bytes: Buffer) => ({
      kind: 'lifeproof' as const,
      bytes,
      sharpness: { score: 500, blurred: false },
    });
    const input = {
      frames: [frame(jpegs.left), frame(jpegs.up), frame(jpegs.right)],
      videos: 0,
      challenge: { actions, expiresAt: new Date('2030-01-01') },
      submittedAt: new Date('2029-01-01'),
    };
    const selfie = (name: string) => ({
      kind: 'selfie' as const,
      bytes: generated(name),
      sharpness: { score: 500, blurred: false },
    });
    expect((await referenceEngine.checkLiveness({ ...input, selfie: selfie('selfie.jpg') })).result).toBe(
      'passing',
    );
    expect(
      (await referenceEngine.checkLiveness({ ...input, selfie: selfie('selfie-other.jpg') })).result,
    ).toBe('failing');
    // A selfie without a face is the selfie's own error (no_face_error from compareFaces): the proof is then
    // judged on its own.
    const blank = await sharp({
      create: { width: 480, height: 640, channels: 3, background: { r: 200, g: 190, b: 180 } },
    })
      .jpeg()
      .toBuffer();
    const noFace = { kind: 'selfie' as const, bytes: blank, sharpness: { score: 500, blurred: false } };
    expect(await facesIn(blank)).toHaveLength(0);
    expect((await referenceEngine.checkLiveness({ ...input, selfie: noFace })).result).toBe('passing');
  });
});
