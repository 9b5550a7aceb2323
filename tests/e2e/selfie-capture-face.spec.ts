import { expect, test } from '@playwright/test';
import { chromiumWithCamera } from './camera';
import { recordCaptureStates, untilTakeSelfie } from './selfie-steps';
import { t } from './support';

// Selfie auto-capture waits for a face (TakeSelfie, the phone's front camera): here Chromium's fake camera
// films the specimen selfie filling the frame (selfie.y4m), and the photo takes itself. The camera that films a
// document page instead is selfie-capture.spec.ts.
test.use({ launchOptions: chromiumWithCamera('selfie.y4m') });

test.describe('a camera that films a face', () => {
  test('takes the selfie by itself, and the enrolment goes on to the review', async ({ page }) => {
    test.setTimeout(120_000);
    await untilTakeSelfie(page, 'newcomer-18');
    const states = await recordCaptureStates(page);
    await expect(page.getByTestId('capture-take').or(page.getByTestId('capture-use'))).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('take-selfie-face-es.png'), fullPage: true });
    // Nobody presses Take photo: the preview comes by itself.
    await expect(page.getByTestId('capture-use')).toBeVisible({ timeout: 30_000 });
    const path = await states();
    expect(path).toContain('camera.taking');
    expect(path).not.toContain('camera.streaming.watching.noFace');
    await expect(page.getByRole('img', { name: t('es', 'capture.preview.alt.selfie') })).toBeVisible();
    await page.getByTestId('capture-use').click();
    await expect(page.getByRole('heading', { name: 'Revise sus datos' })).toBeVisible({ timeout: 60_000 });
  });
});
