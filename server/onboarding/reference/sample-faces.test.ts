// The reference engine's face cues on real faces other than the fixtures': person A of the liveness fixture
// (scripts/fixtures/head-turns.mjs, face-api's demo/sample3.jpg) and every other person of face-api's sample
// photographs, framed as A is and turned and tilted the same way. The two questions below share those faces,
// which the detector measures once (the slowest part of the file).
//
// 1. Is the engine's pitch (the nose tip's place between the eyes and the mouth) a tilt cue, or a fit to the
// liveness fixture's person A? Every other face of face-api's sample photographs, framed as person A is in the
// fixture: turning it (a 2-D squeeze of one side, as the fixture turns A) leaves its pitch within PITCH_TILT of
// its own resting pitch, and tilting it with the fixture's tilt model moves its pitch past PITCH_TILT in the
// right direction. Real tilted photographs are not at hand: what is checked is that the cue follows the
// projected nose of a tilt on every face, and does not move with turns, scale or framing.
//
// 2. The liveness proof judged against the selfie (the same person across the frames and as the selfie), with
// the engine's own functions: A turning and tilting, her selfie (tests/fixtures/generated/selfie.jpg), and the
// other people turning and tilting.
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
import {
  FACE_MATCH_THRESHOLD,
  judgeLiveness,
  LIVENESS_SAME_PERSON,
  PITCH_TILT,
  referenceEngine,
} from './engine';
import { type Face, facesIn, loadFaceModels, similarity } from './faces';
import { faceOf, framedFaces, TIP } from './sample-faces';

const GENERATED = join(__dirname, '..', '..', '..', 'tests', 'fixtures', 'generated');
const generated = (name: string) => readFileSync(join(GENERATED, name));

interface Measured {
  name: string;
  rest: number;
  left: number;
  right: number;
  up: number;
  down: number;
}

/** The pitch of each other face at rest, turned and tilted (faces the detector loses in a pose left out). */
const measured: Measured[] = [];

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
    const rest = await faceOf(rgb);
    const left = await faceOf(warp(rgb, turn('left', TIP.x / WIDTH)));
    const right = await faceOf(warp(rgb, turn('right', TIP.x / WIDTH)));
    const up = await faceOf(warp(rgb, tilt(22, TIP)));
    const down = await faceOf(warp(rgb, tilt(-22, TIP)));
    // A face the detector loses once warped says nothing about the pitch cue.
    if (rest && left && right && up && down) {
      measured.push({
        name,
        rest: rest.pitch,
        left: left.pitch,
        right: right.pitch,
        up: up.pitch,
        down: down.pitch,
      });
    }
    // Person A is in sample3 too: she is not another person.
    if (rest && similarity(rest.descriptor, selfieA.descriptor) >= 0.8) continue;
    if (rest && left && up && right) others.push({ name, frames: [rest, left, up, right] });
  }
}, 300_000);

const share = (values: boolean[]) => values.filter(Boolean).length / values.length;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

// Measured on the 19 faces (a deterministic model on fixed photographs): a turn moves the pitch by a median
// 0.02, past PITCH_TILT in about a quarter of the turns; the fixture's tilt up is seen (past PITCH_TILT) on
// about 4 faces in 5, its tilt down moves the pitch the right way on 5 in 6 but past PITCH_TILT on only about
// half. The cue is real but noisy on faces other than the fixture's: what each check below asserts is the
// floor of that, so a change to the cue (or to the model) that makes it worse fails here.
describe('the pitch cue on the other people of the sample photographs', () => {
  it('measures most of the faces', () => {
    expect(measured.length).toBeGreaterThanOrEqual(15);
  });

  it('mostly does not take a turned head for a tilted one', () => {
    const moves = measured.flatMap((face) => [face.left - face.rest, face.right - face.rest]);
    expect(median(moves.map(Math.abs))).toBeLessThan(PITCH_TILT / 1.5);
    expect(share(moves.map((move) => Math.abs(move) < PITCH_TILT))).toBeGreaterThanOrEqual(0.7);
  });

  it('sees a tilt up on most faces', () => {
    expect(share(measured.map((face) => face.rest - face.up >= PITCH_TILT))).toBeGreaterThanOrEqual(0.75);
  });

  it('moves the pitch down for a tilt down on most faces, past PITCH_TILT on about half', () => {
    expect(share(measured.map((face) => face.down > face.rest))).toBeGreaterThanOrEqual(0.8);
    expect(share(measured.map((face) => face.down - face.rest >= PITCH_TILT))).toBeGreaterThanOrEqual(0.45);
  });
});

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
