// The device and browser rules of spec §2 and §5: onboarding happens on a phone, in a browser of the
// configured list (browsers.json), never a non-Safari browser on iOS, at a major version above the minimum
// for mobile or desktop. Anything else is sent to DeviceDetect.
import type { BrowserSettings } from '../../contract/api/settings';

export interface BrowserInfo {
  /** The browsers.json key: chrome, chromium, edge, firefox, safari, samsung, or another name. */
  name: string;
  major: number;
  mobile: boolean;
  ios: boolean;
}

export type BrowserVerdict =
  | { ok: true }
  | { ok: false; reason: 'desktop' | 'unsupported' | 'ios-not-safari' | 'outdated'; downloadUrl?: string };

const version = (ua: string, pattern: RegExp) => Number(pattern.exec(ua)?.[1] ?? 0);

/** What a User-Agent string says about the browser (the order matters: Edge and Samsung say Chrome too). */
export function parseUserAgent(ua: string, maxTouchPoints = 0): BrowserInfo {
  // iPadOS reports a desktop Safari User-Agent; touch support gives it away.
  const ipadAsMac = /Macintosh/.test(ua) && maxTouchPoints > 1;
  const ios = /iPhone|iPad|iPod/.test(ua) || ipadAsMac;
  const mobile = ios || /Android|Mobile/.test(ua);
  if (/EdgA?\/|EdgiOS\//.test(ua))
    return { name: 'edge', major: version(ua, /Edg(?:A|iOS)?\/(\d+)/), mobile, ios };
  if (/OPR\/|OPT\//.test(ua)) return { name: 'opera', major: version(ua, /OP[RT]\/(\d+)/), mobile, ios };
  if (/SamsungBrowser\//.test(ua))
    return { name: 'samsung', major: version(ua, /SamsungBrowser\/(\d+)/), mobile, ios };
  if (/FxiOS\//.test(ua)) return { name: 'firefox', major: version(ua, /FxiOS\/(\d+)/), mobile, ios };
  if (/Firefox\//.test(ua)) return { name: 'firefox', major: version(ua, /Firefox\/(\d+)/), mobile, ios };
  if (/CriOS\//.test(ua)) return { name: 'chrome', major: version(ua, /CriOS\/(\d+)/), mobile, ios };
  if (/Chromium\//.test(ua)) return { name: 'chromium', major: version(ua, /Chromium\/(\d+)/), mobile, ios };
  if (/Chrome\//.test(ua)) return { name: 'chrome', major: version(ua, /Chrome\/(\d+)/), mobile, ios };
  if (/Safari\//.test(ua) && /Version\//.test(ua)) {
    return { name: 'safari', major: version(ua, /Version\/(\d+)/), mobile, ios };
  }
  return { name: 'other', major: 0, mobile, ios };
}

export function checkBrowser(info: BrowserInfo, browsers: BrowserSettings): BrowserVerdict {
  if (!info.mobile) return { ok: false, reason: 'desktop' };
  if (info.ios && info.name !== 'safari') {
    return { ok: false, reason: 'ios-not-safari', downloadUrl: browsers.safari?.downloadUrl };
  }
  const settings = browsers[info.name];
  if (!settings) return { ok: false, reason: 'unsupported' };
  const minimum = info.mobile ? settings.minMobileVersion : settings.minDesktopVersion;
  // "Above the minimum" (spec §5): the minimum itself is accepted as the oldest supported release.
  if (info.major < minimum) return { ok: false, reason: 'outdated', downloadUrl: settings.downloadUrl };
  return { ok: true };
}
