/**
 * Shared set-up for the emulator's PDFs: a document with its information entries, the embedded DejaVu faces (or the
 * standard fonts where they cannot be loaded) and small text helpers for centring and fitting.
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts, rgb } from 'pdf-lib';
import type { PDFFont, PDFPage } from 'pdf-lib';
import { pdfFontBytes } from './pdf-fonts.ts';

/** Document information written into the PDF (see {@link setInfo}). */
export interface Info {
  Title: string;
  Author?: string;
  Subject?: string;
  Keywords?: string;
}

/** A new document and what pages need to draw on it. */
export interface PdfKit {
  doc: PDFDocument;
  sans: PDFFont;
  bold: PDFFont;
  serif: PDFFont;
  /** Makes text drawable with these fonts (identity with DejaVu; WinAnsi-only with the standard fonts). */
  clean: (text: string) => string;
}

/** Dark blue for headings, grey for secondary text, gold for ornaments. */
export const ink = { text: rgb(0.12, 0.13, 0.16), muted: rgb(0.38, 0.4, 0.45), navy: rgb(0.09, 0.2, 0.38), gold: rgb(0.72, 0.57, 0.25), band: rgb(0.93, 0.95, 0.98), white: rgb(1, 1, 1), cream: rgb(0.995, 0.985, 0.955) };

const latin1 = /^[\x20-\x7e\xa0-\xff]*$/;
// The standard fonts encode WinAnsi only; anything else would make pdf-lib throw.
const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/**
 * Sets document-information entries. pdf-lib writes page text as glyph ids inside compressed streams, so a reader
 * that searches the raw bytes for the learner's or course's name would find nothing; these entries carry the names
 * in plain bytes as well: literal strings where the text is Latin-1, UTF-16 hex strings otherwise (real readers show
 * them as the title, author etc. either way).
 */
function setInfo(doc: PDFDocument, info: Info): void {
  const dict = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  for (const [key, value] of Object.entries(info)) {
    if (value === undefined) continue;
    const text = value.slice(0, 4000);
    const entry = latin1.test(text) ? PDFString.of(text.replace(/[\\()]/g, (ch: string) => `\\${ch}`)) : PDFHexString.fromText(text);
    dict.set(PDFName.of(key), entry);
  }
}

/**
 * @param info document information.
 * @param at creation time (emulator clock), epoch ms.
 * @returns a document with the DejaVu faces embedded as subsets, or the standard fonts where DejaVu is unavailable.
 */
export async function newPdf(info: Info, at: number): Promise<PdfKit> {
  const doc = await PDFDocument.create();
  doc.setProducer('Partner Learning emulator');
  doc.setCreationDate(new Date(at));
  doc.setModificationDate(new Date(at));
  setInfo(doc, info);
  const bytes = await pdfFontBytes();
  if (!bytes) {
    const [sans, bold, serif] = await Promise.all([StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.TimesRomanBold].map((f) => doc.embedFont(f)));
    return { doc, sans: sans!, bold: bold!, serif: serif!, clean: printable };
  }
  doc.registerFontkit(fontkit);
  const [sans, bold, serif] = await Promise.all([bytes.sans, bytes.sansBold, bytes.serifBold].map((b) => doc.embedFont(b, { subset: true })));
  return { doc, sans: sans!, bold: bold!, serif: serif!, clean: (text) => text };
}

/**
 * @returns `text` shortened with an ellipsis so that it is at most `width` points wide at `size`.
 */
export function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (font.widthOfTextAtSize(`${text.slice(0, mid)}…`, size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}

/** @returns the largest size from `max` down to `min` at which `text` fits in `width`. */
export function sizeToFit(font: PDFFont, text: string, max: number, min: number, width: number): number {
  let size = max;
  while (size > min && font.widthOfTextAtSize(text, size) > width) size -= 1;
  return size;
}

/** Draws `text` centred on `centreX` (fitted to `width`). */
export function centred(page: PDFPage, font: PDFFont, text: string, y: number, size: number, color = ink.text, width = 700, centreX = page.getWidth() / 2): void {
  const shown = fit(font, text, size, width);
  page.drawText(shown, { x: centreX - font.widthOfTextAtSize(shown, size) / 2, y, size, font, color });
}
