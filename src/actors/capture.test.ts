// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImagePreparationError, prepareImage } from '../media/prepare-image';
import { CameraOpenError, checkPhoto, ImageCheckFailure, startCamera } from './capture';

vi.mock('../media/prepare-image', async (original) => ({
  ...(await original<typeof import('../media/prepare-image')>()),
  prepareImage: vi.fn(),
}));

const file = new Blob([new Uint8Array(8)], { type: 'image/png' });

afterEach(() => {
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('checkPhoto', () => {
  it('returns the prepared JPEG with its size', async () => {
    const blob = new Blob(['x'], { type: 'image/jpeg' });
    vi.mocked(prepareImage).mockResolvedValueOnce({ id: 0, ok: true, blob, width: 1920, height: 1080 });
    await expect(checkPhoto(file)).resolves.toEqual({ blob, width: 1920, height: 1080 });
  });

  it.each([
    ['too-small', 'image_too_small'],
    ['too-large', 'image_too_large'],
    ['wrong-type', 'image_wrong_type'],
    ['unreadable', 'image_not_available'],
  ] as const)('rejects a %s image with { code: %s }', async (problem, code) => {
    vi.mocked(prepareImage).mockRejectedValueOnce(new ImagePreparationError(problem));
    await expect(checkPhoto(file)).rejects.toEqual(expect.objectContaining({ code }));
  });

  it('treats any other failure (no worker, say) as an image that is not available', async () => {
    vi.mocked(prepareImage).mockRejectedValueOnce(new ReferenceError('Worker is not defined'));
    const error = await checkPhoto(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageCheckFailure);
    expect(error).toHaveProperty('code', 'image_not_available');
  });
});

describe('startCamera', () => {
  it('rejects with the camera-failure flag the machine reads', async () => {
    Object.defineProperty(navigator, 'mediaDevices', {
      value: { getUserMedia: () => Promise.reject(new DOMException('no', 'NotAllowedError')) },
      configurable: true,
    });
    const error = await startCamera('environment').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CameraOpenError);
    expect(error).toHaveProperty('cameraFailure', 'denied');
  });

  it('calls a missing camera API insecure', async () => {
    await expect(startCamera('user')).rejects.toHaveProperty('cameraFailure', 'insecure');
  });

  it('turns off a camera that opens after nobody waits for it any more', async () => {
    const stop = vi.fn();
    Object.defineProperty(navigator, 'mediaDevices', {
      value: { getUserMedia: async () => ({ getTracks: () => [{ stop }] }) },
      configurable: true,
    });
    const controller = new AbortController();
    const settled = vi.fn();
    startCamera('environment', controller.signal).then(settled, settled);
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stop).toHaveBeenCalledOnce();
    expect(settled).not.toHaveBeenCalled();
  });
});
