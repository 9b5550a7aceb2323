// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATA_RELEASE_MS, releaseWhenShown } from './shell-release';

/** A page as the server sends it: the paint, and the app's root hidden beside it. */
function page(paint: string, withData: boolean) {
  document.body.innerHTML =
    `<div id="shell"${withData ? ' data-with-data' : ''}><main>${paint}</main></div>` +
    '<div id="root" hidden></div>';
  return document.getElementById('root') as HTMLElement;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe("the server's paint giving way to the app", () => {
  it('gives way at once when it has nobody’s data', () => {
    const root = page('<h1>Visitas</h1>', false);
    root.innerHTML = '<main><section aria-busy="true"></section></main>';
    releaseWhenShown();
    expect(document.getElementById('shell')).toBeNull();
    expect(root.hidden).toBe(false);
  });

  it('with the person’s data, waits until the app’s screen has loaded it too', async () => {
    const root = page('<ul><li>Revisión de contrato</li></ul>', true);
    root.innerHTML = '<main><div aria-busy="true"></div></main>';
    releaseWhenShown();
    await flush();
    expect(document.getElementById('shell')).not.toBeNull();
    expect(root.hidden).toBe(true);
    root.querySelector('[aria-busy]')?.setAttribute('aria-busy', 'false');
    await flush();
    expect(document.getElementById('shell')).toBeNull();
    expect(root.hidden).toBe(false);
  });

  it('waits for as many pictures as the paint shows (the QR), each loaded', async () => {
    const root = page('<img src="data:image/png;base64,AA==" alt="QR">', true);
    root.innerHTML = '<main><div aria-busy="false"></div></main>';
    releaseWhenShown();
    await flush();
    expect(document.getElementById('shell')).not.toBeNull();
    const img = document.createElement('img');
    Object.defineProperties(img, { complete: { value: true }, naturalWidth: { value: 288 } });
    root.querySelector('main')?.append(img);
    await flush();
    expect(document.getElementById('shell')).toBeNull();
  });

  it('gives way after a while whatever the app shows, never keeping the page inert', () => {
    vi.useFakeTimers();
    const root = page('<p>data</p>', true);
    root.innerHTML = '<main><div aria-busy="true"></div></main>';
    releaseWhenShown();
    vi.advanceTimersByTime(DATA_RELEASE_MS - 1);
    expect(document.getElementById('shell')).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(document.getElementById('shell')).toBeNull();
    expect(root.hidden).toBe(false);
  });

  it('gives way at once when the app drew another screen than the paint (the person was sent elsewhere)', () => {
    const root = page('<img src="data:image/png;base64,AA==" alt="QR">', true);
    document.getElementById('shell')?.setAttribute('data-paint', 'UserHome');
    root.innerHTML =
      '<main><section data-screen="PortalManagement"><div aria-busy="true"></div></section></main>';
    releaseWhenShown();
    expect(document.getElementById('shell')).toBeNull();
  });
});
