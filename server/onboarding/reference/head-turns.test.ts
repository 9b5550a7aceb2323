// The liveness camera fixture (scripts/fixtures/head-turns.mjs, the fake camera of tests/e2e/liveness.spec.ts)
// judged by the engine's own functions: each pose is seen as that pose against the resting face, and a proof
// made of the pose each action asks for passes for every challenge the server draws (three of its six
// actions, no action twice in a row: server/onboarding/routers/portrayals.ts); the frames go through
// the camera's YUV 4:2:0 and the browser's JPEG as in the journey.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  HEIGHT,
  MARKER_AT,
  MARKER_SIZE,
  POSE_FOR_ACTION,
  poseJpegs,
  poseOfMarker,
  WIDTH,
} from '../../../scripts/fixtures/head-turns.mjs';
import { judgeLiveness, SELFIE_MIN_FACE_WIDTH, showsAction } from './engine';
import { type Face, facesIn, loadFaceModels } from './faces';

type Pose = 'neutral' | 'left' | 'right' | 'up' | 'down';

let jpegs: Record<Pose, Buffer>;
const faces = {} as Record<Pose, Face[]>;

beforeAll(async () => {
  await loadFaceModels();
  jpegs = (await poseJpegs()) as Record<Pose, Buffer>;
  for (const pose of Object.keys(jpegs) as Pose[]) faces[pose] = await facesIn(jpegs[pose]);
}, 180_000);

/** Every challenge of three of these actions without an action twice in a row. */
function challenges(actions: string[]): string[][] {
  const all: string[][] = [];
  for (const a of actions)
    for (const b of actions) for (const c of actions) if (a !== b && b !== c) all.push([a, b, c]);
  return all;
}

describe('the head-turn camera fixture', () => {
  it('shows one face in every pose, close enough to be a selfie', () => {
    for (const pose of Object.keys(faces) as Pose[]) {
      expect(faces[pose], pose).toHaveLength(1);
      expect(faces[pose][0]?.box.width, pose).toBeGreaterThanOrEqual(SELFIE_MIN_FACE_WIDTH);
    }
  });

  it('turns and tilts the head past the engine thresholds, each pose only on its own axis', () => {
    const [neutral] = faces.neutral;
    const [left] = faces.left;
    const [right] = faces.right;
    const [up] = faces.up;
    const [down] = faces.down;
    if (!neutral || !left || !right || !up || !down) throw new Error('a face was not found');
    const rest = { yaw: neutral.yaw, pitch: neutral.pitch };
    expect(showsAction('turn_left', left, rest)).toBe(true);
    expect(showsAction('turn_right', right, rest)).toBe(true);
    expect(showsAction('look_up', up, rest)).toBe(true);
    expect(showsAction('look_down', down, rest)).toBe(true);
    for (const action of ['turn_left', 'turn_right', 'look_up', 'look_down']) {
      expect(showsAction(action, neutral, rest), action).toBe(false);
    }
    expect(showsAction('turn_right', left, rest)).toBe(false);
    expect(showsAction('turn_left', right, rest)).toBe(false);
    expect(showsAction('look_down', up, rest)).toBe(false);
    expect(showsAction('look_up', down, rest)).toBe(false);
  });

  it('passes the liveness judgement for every challenge the server can draw', () => {
    const all = challenges(['turn_left', 'turn_right', 'blink', 'smile', 'look_up', 'look_down']);
    expect(all).toHaveLength(6 * 5 * 5);
    for (const actions of all) {
      const frames = actions.map((action) => {
        const [face] = faces[POSE_FOR_ACTION[action as keyof typeof POSE_FOR_ACTION] as Pose];
        if (!face) throw new Error(`no face for ${action}`);
        return face;
      });
      expect(judgeLiveness(frames, actions), actions.join(', ')).toMatchObject({ result: 'passing' });
    }
  });

  it('fails a proof whose frames do not follow the challenge', () => {
    const [left] = faces.left;
    const [right] = faces.right;
    const [neutral] = faces.neutral;
    if (!left || !right || !neutral) throw new Error('a face was not found');
    expect(judgeLiveness([right, neutral, left], ['turn_left', 'blink', 'turn_right'])).toMatchObject({
      result: 'failing',
    });
    expect(judgeLiveness([neutral, neutral, neutral], ['turn_left', 'look_up', 'blink'])).toMatchObject({
      result: 'failing',
    });
  });

  it('names each pose by the marker the journey reads', async () => {
    for (const pose of Object.keys(jpegs) as Pose[]) {
      const { data } = await sharp(jpegs[pose])
        .extract({
          left: MARKER_AT + 8,
          top: MARKER_AT + 8,
          width: MARKER_SIZE - 16,
          height: MARKER_SIZE - 16,
        })
        .resize(1, 1, { fit: 'fill' })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(poseOfMarker([...data]), pose).toBe(pose);
    }
    const { width, height } = await sharp(jpegs.neutral).metadata();
    expect([width, height]).toEqual([WIDTH, HEIGHT]);
  });
});
