// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WHOLE_SHEET_WAIT_MS, wholeStylesheetLoaded } from './full-sheet';

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('the first render waits for the whole stylesheet', () => {
  it('waits for nothing on a page whose sheet is its own (no template, no link to wait for)', async () => {
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/index.css">';
    expect(await settled(wholeStylesheetLoaded())).toBe(true);
  });

  it("links the template's sheet itself when the inline script has not, and waits for it to load", async () => {
    document.body.innerHTML =
      '<template id="portal-preloads"><link rel="stylesheet" href="/assets/index.css" data-full-sheet>' +
      '<link rel="modulepreload" href="/assets/a.js"></template>';
    const loaded = wholeStylesheetLoaded();
    const link = document.head.querySelector('link[data-full-sheet]');
    expect(link?.getAttribute('href')).toBe('/assets/index.css');
    // The screen's files stay for the inline script to link.
    const template = document.getElementById('portal-preloads') as HTMLTemplateElement;
    expect(template.content.querySelectorAll('link')).toHaveLength(1);
    expect(await settled(loaded)).toBe(false);
    link?.dispatchEvent(new Event('load'));
    expect(await settled(loaded)).toBe(true);
  });

  it('waits for a sheet the inline script linked, and draws after a failed one too', async () => {
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/index.css" data-full-sheet>';
    const loaded = wholeStylesheetLoaded();
    expect(await settled(loaded)).toBe(false);
    document.head.querySelector('link')?.dispatchEvent(new Event('error'));
    expect(await settled(loaded)).toBe(true);
  });

  it('waits for nothing when the sheet has loaded already', async () => {
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/index.css" data-full-sheet>';
    Object.defineProperty(document.head.querySelector('link'), 'sheet', { value: {} });
    expect(await settled(wholeStylesheetLoaded())).toBe(true);
  });

  it('draws after WHOLE_SHEET_WAIT_MS whatever holds the sheet up', async () => {
    vi.useFakeTimers();
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/index.css" data-full-sheet>';
    let done = false;
    void wholeStylesheetLoaded().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(WHOLE_SHEET_WAIT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
