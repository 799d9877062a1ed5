/**
 * PDF checks for the emulator contract suite. pdf-lib compresses content streams and writes standard-font text as
 * hex strings, so a learner's name is searched in raw bytes, inflated streams, literal and hex form.
 */
import { inflateSync } from 'node:zlib';

/**
 * The text a PDF could carry a string in: raw bytes plus every Flate stream inflated.
 * @param bytes - the PDF
 * @returns one latin1 string to search
 */
export function pdfSearchText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const parts = [raw];
  const re = /stream\r?\n/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    try {
      parts.push(inflateSync(Buffer.from(raw.slice(start, end), 'latin1')).toString('latin1'));
    } catch {
      // Not Flate (or truncated): the raw bytes are already searched.
    }
  }
  return parts.join('\n');
}

/**
 * Whether a PDF shows a string, as a literal string or as a hex string (pdf-lib writes standard-font text as hex).
 * @param bytes - the PDF
 * @param needle - ASCII text to find
 * @returns true when found in either form
 */
export function pdfMentions(bytes: Uint8Array, needle: string): boolean {
  const text = pdfSearchText(bytes);
  const hex = Buffer.from(needle, 'latin1').toString('hex');
  return text.includes(needle) || text.toLowerCase().includes(hex);
}
