// Is the engine's pitch (the nose tip's place between the eyes and the mouth) a tilt cue, or a fit to the
// liveness fixture's person A? Every other face of face-api's sample photographs, framed as person A is in the
// fixture: turning it (a 2-D squeeze of one side, as the fixture turns A) leaves its pitch within PITCH_TILT of
// its own resting pitch, and tilting it with the fixture's tilt model moves its pitch past PITCH_TILT in the
// right direction. Real tilted photographs are not at hand: what is checked is that the cue follows the
// projected nose of a tilt on every face, and does not move with turns, scale or framing.
import { beforeAll, describe, expect, it } from 'vitest';
import { tilt, turn, WIDTH, warp } from '../../../scripts/fixtures/head-turns.mjs';
import { PITCH_TILT } from './engine';
import { loadFaceModels } from './faces';
import { faceOf, framedFaces, TIP } from './sample-faces';

interface Measured {
  name: string;
  rest: number;
  left: number;
  right: number;
  up: number;
  down: number;
}

const measured: Measured[] = [];

beforeAll(async () => {
  await loadFaceModels();
  for (const { name, rgb } of await framedFaces()) {
    const rest = await faceOf(rgb);
    const left = await faceOf(warp(rgb, turn('left', TIP.x / WIDTH)));
    const right = await faceOf(warp(rgb, turn('right', TIP.x / WIDTH)));
    const up = await faceOf(warp(rgb, tilt(22, TIP)));
    const down = await faceOf(warp(rgb, tilt(-22, TIP)));
    // A face the detector loses once warped says nothing about the pitch cue.
    if (!rest || !left || !right || !up || !down) continue;
    measured.push({
      name,
      rest: rest.pitch,
      left: left.pitch,
      right: right.pitch,
      up: up.pitch,
      down: down.pitch,
    });
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
