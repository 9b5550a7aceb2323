import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { type CapturedPhoto, captureMachine } from './capture.machine';

const frame = new Blob([new Uint8Array(16)], { type: 'image/jpeg' });
const photo: CapturedPhoto = { blob: frame, width: 1920, height: 1080 };

function start(options: {
  camera?: () => Promise<MediaStream>;
  check?: (file: Blob) => Promise<CapturedPhoto>;
  requireFace?: boolean;
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
    { input: { requiredSharpFrames: 3, requireFace: options.requireFace ?? false }, clock },
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

  describe('a selfie (requireFace) takes itself only with a face large enough', () => {
    it('takes the photo after 3 sharp frames in a row that show a face', async () => {
      const { actor, spies } = start({ requireFace: true });
      await waitFor(actor, (s) => s.matches({ camera: 'streaming' }));
      for (let i = 0; i < 2; i++) actor.send({ type: 'frame.scored', sharp: true, face: 'present' });
      expect(actor.getSnapshot().matches({ camera: { streaming: { watching: 'framing' } } })).toBe(true);
      actor.send({ type: 'frame.scored', sharp: true, face: 'present' });
      await waitFor(actor, (s) => s.matches('preview'));
      expect(spies.takePhoto).toHaveBeenCalledOnce();
    });

    it('never takes a sharp frame without a face by itself: the hint shows and the button still works', async () => {
      const { actor, spies } = start({ requireFace: true });
      await waitFor(actor, (s) => s.matches({ camera: 'streaming' }));
      for (let i = 0; i < 10; i++) actor.send({ type: 'frame.scored', sharp: true, face: 'absent' });
      const snapshot = actor.getSnapshot();
      expect(snapshot.matches({ camera: { streaming: { watching: 'noFace' } } })).toBe(true);
      expect(snapshot.hasTag('faceMissing')).toBe(true);
      expect(snapshot.context.sharpFrames).toBe(0);
      expect(spies.takePhoto).not.toHaveBeenCalled();
      actor.send({ type: 'capture.take' });
      await waitFor(actor, (s) => s.matches('preview'));
      expect(spies.takePhoto).toHaveBeenCalledOnce();
    });

    it('does not take a face too small (far away, a portrait held up) and says so', async () => {
      const { actor, spies } = start({ requireFace: true });
      await waitFor(actor, (s) => s.matches({ camera: 'streaming' }));
      for (let i = 0; i < 10; i++) actor.send({ type: 'frame.scored', sharp: true, face: 'tooSmall' });
      expect(actor.getSnapshot().hasTag('faceTooSmall')).toBe(true);
      expect(spies.takePhoto).not.toHaveBeenCalled();
    });

    it('treats a frame nobody could look at (the detector failed) as one without a face', async () => {
      const { actor, spies } = start({ requireFace: true });
      await waitFor(actor, (s) => s.matches({ camera: 'streaming' }));
      for (let i = 0; i < 5; i++) actor.send({ type: 'frame.scored', sharp: true });
      expect(actor.getSnapshot().hasTag('faceMissing')).toBe(true);
      expect(spies.takePhoto).not.toHaveBeenCalled();
    });

    it('starts the count again when the face leaves the frame, and drops the hint when it comes back', async () => {
      const { actor, spies } = start({ requireFace: true });
      await waitFor(actor, (s) => s.matches({ camera: 'streaming' }));
      actor.send({ type: 'frame.scored', sharp: true, face: 'present' });
      actor.send({ type: 'frame.scored', sharp: true, face: 'present' });
      actor.send({ type: 'frame.scored', sharp: true, face: 'absent' });
      actor.send({ type: 'frame.scored', sharp: true, face: 'present' });
      expect(actor.getSnapshot().hasTag('faceMissing')).toBe(false);
      actor.send({ type: 'frame.scored', sharp: true, face: 'present' });
      expect(spies.takePhoto).not.toHaveBeenCalled();
      actor.send({ type: 'frame.scored', sharp: true, face: 'present' });
      await waitFor(actor, (s) => s.matches('preview'));
    });
  });

  it('a document (no face required) takes itself from sharp frames whatever a face detector says', async () => {
    const { actor, spies } = start({});
    await waitFor(actor, (s) => s.matches({ camera: 'streaming' }));
    for (let i = 0; i < 2; i++) actor.send({ type: 'frame.scored', sharp: true, face: 'absent' });
    expect(actor.getSnapshot().hasTag('faceMissing')).toBe(false);
    actor.send({ type: 'frame.scored', sharp: true });
    await waitFor(actor, (s) => s.matches('preview'));
    expect(spies.takePhoto).toHaveBeenCalledOnce();
  });
});
