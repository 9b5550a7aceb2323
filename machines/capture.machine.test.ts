import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { type CapturedPhoto, captureMachine } from './capture.machine';

const frame = new Blob([new Uint8Array(16)], { type: 'image/jpeg' });
const photo: CapturedPhoto = { blob: frame, width: 1920, height: 1080 };

function start(options: {
  camera?: () => Promise<MediaStream>;
  check?: (file: Blob) => Promise<CapturedPhoto>;
}) {
  const spies = { takePhoto: vi.fn(), checkImage: vi.fn(), stopCamera: vi.fn() };
  const clock = new SimulatedClock();
  const actor = createActor(
    captureMachine.provide({
      actors: {
        startCamera: fromPromise(async () => (options.camera ?? (async () => ({}) as MediaStream))()),
        takePhoto: fromPromise(async () => {
          spies.takePhoto();
          return frame;
        }),
        checkImage: fromPromise(async ({ input }) => {
          spies.checkImage(input.file);
          return (options.check ?? (async () => photo))(input.file);
        }),
      },
      actions: { stopCamera: spies.stopCamera },
    }),
    { input: { requiredSharpFrames: 3 }, clock },
  );
  actor.start();
  return { actor, clock, spies };
}

describe('capture machine', () => {
  it('takes the photo by itself after 3 sharp frames in a row; a blurred frame starts the count again', async () => {
    const { actor, spies } = start({});
    await waitFor(actor, (s) => s.matches({ camera: 'streaming' }));
    for (const sharp of [true, true, false, true, true]) actor.send({ type: 'frame.scored', sharp });
    expect(actor.getSnapshot().matches({ camera: 'streaming' })).toBe(true);
    actor.send({ type: 'frame.scored', sharp: true });
    await waitFor(actor, (s) => s.matches('preview'));
    expect(spies.takePhoto).toHaveBeenCalledOnce();
    expect(spies.stopCamera).toHaveBeenCalledOnce();
    actor.send({ type: 'capture.use' });
    expect(actor.getSnapshot().output).toEqual(photo);
  });

  it('reports a detection timeout after 20 s without a photo', async () => {
    const { actor, clock } = start({});
    await waitFor(actor, (s) => s.matches({ camera: 'streaming' }));
    clock.increment(19999);
    expect(actor.getSnapshot().matches({ camera: 'streaming' })).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('detectionTimedOut');
    expect(actor.getSnapshot().getMeta()['capture.detectionTimedOut']).toEqual({
      screen: 'DocumentScan',
      captureError: 'detection_timeout',
    });
  });

  it('flags a denied camera and lets the person choose a file, which goes through the same checks', async () => {
    const { actor, spies } = start({
      camera: async () => {
        throw { cameraFailure: 'denied' };
      },
      check: async () => {
        throw { code: 'image_too_small' };
      },
    });
    await waitFor(actor, (s) => s.matches('cameraFailed'));
    expect(actor.getSnapshot().context.cameraFailure).toBe('denied');
    const file = new Blob(['tiny'], { type: 'image/png' });
    actor.send({ type: 'file.chosen', file });
    await waitFor(actor, (s) => s.matches({ rejected: 'imageTooSmall' }));
    expect(spies.checkImage).toHaveBeenCalledWith(file);
  });
});
