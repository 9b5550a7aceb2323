import { describe, expect, it } from 'vitest';
import { cameraFailureOf } from './camera';

describe('cameraFailureOf', () => {
  it.each([
    ['NotAllowedError', 'denied'],
    ['SecurityError', 'denied'],
    ['NotFoundError', 'no-camera'],
    ['OverconstrainedError', 'no-camera'],
    ['NotReadableError', 'in-use'],
    ['TypeError', 'insecure'],
    ['Whatever', 'failed'],
  ])('%s → %s', (name, failure) => {
    expect(cameraFailureOf(new DOMException('x', name))).toBe(failure);
  });
});
