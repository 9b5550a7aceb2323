import { describe, expect, it } from 'vitest';
import { checkBrowser, parseUserAgent } from './browser-check';

const browsers = {
  chrome: { minMobileVersion: 100, minDesktopVersion: 100, downloadUrl: 'https://chrome' },
  safari: { minMobileVersion: 15, minDesktopVersion: 15, downloadUrl: 'https://safari' },
  samsung: { minMobileVersion: 18, minDesktopVersion: 18, downloadUrl: 'https://samsung' },
};

const UA = {
  pixel:
    'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
  oldAndroid:
    'Mozilla/5.0 (Linux; Android 9; SM-G960F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/90.0.4430.91 Mobile Safari/537.36',
  samsung:
    'Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
  ipadAsMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  desktopChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  opera:
    'Mozilla/5.0 (Linux; Android 10) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 OPR/60.0',
};

describe('browser check (spec §5)', () => {
  it('accepts a current phone browser of the list', () => {
    expect(checkBrowser(parseUserAgent(UA.pixel), browsers)).toEqual({ ok: true });
    expect(checkBrowser(parseUserAgent(UA.samsung), browsers)).toEqual({ ok: true });
    expect(checkBrowser(parseUserAgent(UA.iphoneSafari), browsers)).toEqual({ ok: true });
    expect(checkBrowser(parseUserAgent(UA.ipadAsMac, 5), browsers)).toEqual({ ok: true });
  });

  it('sends a PC to DeviceDetect', () => {
    expect(checkBrowser(parseUserAgent(UA.desktopChrome), browsers)).toMatchObject({
      ok: false,
      reason: 'desktop',
    });
    expect(checkBrowser(parseUserAgent(UA.ipadAsMac, 0), browsers)).toMatchObject({
      ok: false,
      reason: 'desktop',
    });
  });

  it('refuses a non-Safari browser on iOS, offering Safari', () => {
    expect(checkBrowser(parseUserAgent(UA.iphoneChrome), browsers)).toEqual({
      ok: false,
      reason: 'ios-not-safari',
      downloadUrl: 'https://safari',
    });
  });

  it('refuses an outdated or unlisted browser', () => {
    expect(checkBrowser(parseUserAgent(UA.oldAndroid), browsers)).toEqual({
      ok: false,
      reason: 'outdated',
      downloadUrl: 'https://chrome',
    });
    expect(checkBrowser(parseUserAgent(UA.opera), browsers)).toMatchObject({
      ok: false,
      reason: 'unsupported',
    });
  });
});
