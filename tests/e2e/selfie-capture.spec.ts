import { expect, test } from '@playwright/test';
import { recordCaptureStates, untilTakeSelfie } from './selfie-steps';
import { t } from './support';

// Selfie auto-capture waits for a face (TakeSelfie, the phone's front camera). Here Chromium's fake camera films,
// as every other journey's camera does, the specimen ID card lying on a table (document.y4m): its sharp frames
// show no face large enough, so the photo never takes itself; the person is told why and the Take photo button
// works. A camera that films a face: selfie-capture-face.spec.ts.

test.describe('a camera that films a document page (no face)', () => {
  test('never takes the selfie by itself: the hint says why and Take photo works', async ({ page }) => {
    test.setTimeout(120_000);
    // The detector's weights come from our own origin (a frame nobody could judge would show the hint too).
    const weights = page.waitForResponse(
      (r) => /\/assets\/tiny_face_detector_model-[\w-]+\.bin$/.test(r.url()),
      {
        timeout: 60_000,
      },
    );
    await untilTakeSelfie(page, 'newcomer-19');
    const states = await recordCaptureStates(page);
    const hint = page.getByTestId('capture-face-hint');
    await expect(hint).toHaveText(t('es', 'capture.face.missing'), { timeout: 30_000 });
    expect((await weights).status()).toBe(200);
    await expect(page.getByTestId('capture-take')).toBeEnabled();
    await page.screenshot({ path: test.info().outputPath('take-selfie-no-face-es.png'), fullPage: true });
    // The camera keeps filming sharp frames of the card until the capture machine's detection timeout (20 s of
    // its own clock): in all that time it never took a photo by itself.
    await expect(page.locator('[data-capture-error="detection_timeout"]')).toBeVisible({ timeout: 60_000 });
    const path = await states();
    expect(path).not.toContain('camera.taking');
    expect(path).not.toContain('preview');
    // Again, and this time the person takes the photo with the button.
    await page.getByTestId('capture-retry').click();
    await expect(hint).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('capture-take').click();
    await expect(page.getByTestId('capture-use')).toBeVisible({ timeout: 60_000 });
  });

  for (const lang of ['en', 'eu'] as const) {
    test(`says so in ${lang}`, async ({ page }) => {
      test.setTimeout(90_000);
      await untilTakeSelfie(page, lang === 'en' ? 'newcomer-20' : 'newcomer-22', lang);
      await expect(page.getByTestId('capture-face-hint')).toHaveText(t(lang, 'capture.face.missing'), {
        timeout: 30_000,
      });
      await expect(page.getByTestId('capture-take')).toHaveText(t(lang, 'capture.take'));
      await page.screenshot({
        path: test.info().outputPath(`take-selfie-no-face-${lang}.png`),
        fullPage: true,
      });
    });
  }
});
