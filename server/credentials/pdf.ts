// The printable QR credential (spec §7 GET /public/credentials/{userId}/sids/{sid} as PDF): one A6 page with the
// tenant's logo and title, the person's name, the QR image and its validity window as DD/MM/YYYY HH:mm (spec §9)
// in the facility's timezone. Made with pdf-lib; the SVG logo is rasterised with sharp, since PDF has no SVG.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';

export type PdfLocale = 'es' | 'en' | 'eu';

const LABELS: Record<PdfLocale, { validFrom: string; validUntil: string; timezone: string; title: string }> =
  {
    es: {
      title: 'Credencial QR',
      validFrom: 'Válida desde',
      validUntil: 'Válida hasta',
      timezone: 'Hora de',
    },
    en: { title: 'QR credential', validFrom: 'Valid from', validUntil: 'Valid until', timezone: 'Time in' },
    eu: {
      title: 'QR kredentziala',
      validFrom: 'Hasiera:',
      validUntil: 'Iraungitzea:',
      timezone: 'Ordu-eremua:',
    },
  };

/** The PDF's language: ?lang= when it names one, else the first of Accept-Language that does, else Spanish. */
export function pdfLocaleOf(lang: string | undefined, acceptLanguage: string | undefined): PdfLocale {
  const candidates = [
    lang ?? '',
    ...(acceptLanguage ?? '').split(',').map((part) => part.split(';')[0] ?? ''),
  ];
  for (const candidate of candidates) {
    const code = candidate.trim().slice(0, 2).toLowerCase();
    if (code === 'es' || code === 'en' || code === 'eu') return code;
  }
  return 'es';
}

/** DD/MM/YYYY HH:mm (spec §9) of an instant, read on the clock of a timezone. */
export function formatInZone(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
}

// The standard fonts speak WinAnsi: Spanish and Basque letters are in it; anything else becomes '?'.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
function winAnsi(text: string): string {
  return [...text]
    .map((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)
        ? ch
        : '?';
    })
    .join('');
}

export interface CredentialPdfInput {
  publicDir: string;
  tenant: string;
  title: string;
  logo: string;
  name: string;
  qrPng: Uint8Array;
  startsAt: Date;
  endsAt: Date | null;
  timeZone: string;
  facility: string | null;
  locale: PdfLocale;
}

async function logoPng(publicDir: string, tenant: string, logo: string): Promise<Uint8Array | null> {
  try {
    const bytes = await readFile(join(publicDir, 'tenants', tenant, logo));
    return new Uint8Array(await sharp(bytes, { density: 192 }).resize({ height: 96 }).png().toBuffer());
  } catch {
    // A tenant without a readable logo still gets its credential.
    return null;
  }
}

/** The PDF bytes of one QR credential. */
export async function credentialPdf(input: CredentialPdfInput): Promise<Uint8Array> {
  const labels = LABELS[input.locale];
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(`${input.title} · ${labels.title}`));
  pdf.setCreator('identity-portal');
  pdf.setCreationDate(input.startsAt);
  // A6 portrait, in points.
  const width = 298;
  const height = 420;
  const page = pdf.addPage([width, height]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.07, 0.09, 0.15);
  const centred = (text: string, y: number, size: number, font = regular) => {
    const safe = winAnsi(text);
    const textWidth = font.widthOfTextAtSize(safe, size);
    page.drawText(safe, { x: (width - textWidth) / 2, y, size, font, color: ink });
  };

  let y = height - 24;
  const logo = await logoPng(input.publicDir, input.tenant, input.logo);
  if (logo) {
    const image = await pdf.embedPng(logo);
    const scaled = image.scaleToFit(120, 36);
    y -= scaled.height;
    page.drawImage(image, { x: (width - scaled.width) / 2, y, width: scaled.width, height: scaled.height });
  }
  y -= 22;
  centred(input.title, y, 13, bold);
  y -= 16;
  centred(labels.title, y, 10);
  y -= 22;
  centred(input.name, y, 15, bold);

  const qr = await pdf.embedPng(input.qrPng);
  const side = 190;
  y -= side + 10;
  page.drawImage(qr, { x: (width - side) / 2, y, width: side, height: side });

  y -= 20;
  centred(`${labels.validFrom} ${formatInZone(input.startsAt, input.timeZone)}`, y, 10);
  if (input.endsAt) {
    y -= 14;
    centred(`${labels.validUntil} ${formatInZone(input.endsAt, input.timeZone)}`, y, 10, bold);
  }
  y -= 14;
  centred(`${labels.timezone} ${input.facility ?? input.timeZone} (${input.timeZone})`, y, 8);
  return pdf.save();
}
