// QR codes of the reference backend: the QR credential image (GET /public/credentials/{userId}/sids/{sid}) and
// the "continue on your phone" link of POST /user-code/generate. Error correction M, a 2-module quiet zone.
import { type QRCodeToBufferOptions, toBuffer, toDataURL } from 'qrcode';

const ERROR_CORRECTION = 'M';
const MARGIN = 2;
/** Default PNG width in pixels: large enough to scan from a screen or a printout. */
export const QR_DEFAULT_SIZE = 320;
const MIN_SIZE = 64;
const MAX_SIZE = 2048;

export interface QrOptions {
  /** Width (and height) of the PNG in pixels, clamped to 64–2048; 320 when omitted. */
  size?: number;
}

function pngOptions(size: number | undefined): QRCodeToBufferOptions {
  const width =
    size === undefined || !Number.isFinite(size)
      ? QR_DEFAULT_SIZE
      : Math.min(MAX_SIZE, Math.max(MIN_SIZE, Math.round(size)));
  return { type: 'png', errorCorrectionLevel: ERROR_CORRECTION, margin: MARGIN, width };
}

/** The QR code of `text` as PNG bytes. */
export async function qrPng(text: string, options: QrOptions = {}): Promise<Buffer> {
  return toBuffer(text, pngOptions(options.size));
}

/** The QR code of `text` as a `data:image/png;base64,…` URL. */
export async function qrDataUrl(text: string, options: QrOptions = {}): Promise<string> {
  const { type: _type, ...rest } = pngOptions(options.size);
  return toDataURL(text, { ...rest, type: 'image/png' });
}
