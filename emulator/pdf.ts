import { PDFDict, PDFDocument, PDFName, PDFString, StandardFonts, rgb } from 'pdf-lib';
import type { PDFFont, PDFPage } from 'pdf-lib';
import { iso } from './clock.ts';
import type { Transcript, User } from './types.ts';

/** Rows drawn in a transcript PDF; the rest are summarised in one line so 100,000 records stay cheap. */
export const MAX_PDF_ROWS = 500;

// The standard fonts encode WinAnsi only; anything else would make pdf-lib throw.
const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

interface Writer {
  line(text: string, size?: number, bold?: boolean): void;
  save(): Promise<Uint8Array>;
}

/** Document information written as plain literal strings (see {@link setInfo}). */
interface Info {
  Title: string;
  Author?: string;
  Subject?: string;
  Keywords?: string;
}

/**
 * Sets document-information entries as literal strings. pdf-lib writes page text as hex strings inside
 * compressed streams, so a reader that searches the raw bytes for the learner's or course's name would find
 * nothing; these entries carry the names in plain bytes as well (real readers show them as the title etc.).
 */
function setInfo(doc: PDFDocument, info: Info): void {
  const dict = doc.context.lookup(doc.context.trailerInfo.Info, PDFDict);
  for (const [key, value] of Object.entries(info)) {
    if (value === undefined) continue;
    const literal = printable(value).slice(0, 4000).replace(/[\\()]/g, (ch) => `\\${ch}`);
    dict.set(PDFName.of(key), PDFString.of(literal));
  }
}

async function writer(info: Info, at: number): Promise<Writer> {
  const doc = await PDFDocument.create();
  doc.setProducer('Partner Learning emulator');
  doc.setCreationDate(new Date(at));
  doc.setModificationDate(new Date(at));
  setInfo(doc, info);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = doc.addPage([595, 842]);
  let y = 790;
  return {
    line(text, size = 10, isBold = false) {
      if (y < 50) {
        page = doc.addPage([595, 842]);
        y = 790;
      }
      const font: PDFFont = isBold ? bold : regular;
      page.drawText(printable(text).slice(0, 110), { x: 50, y, size, font, color: rgb(0.1, 0.1, 0.1) });
      y -= size + 6;
    },
    save: () => doc.save({ useObjectStreams: false }),
  };
}

const fullName = (u: User) => `${u.firstName} ${u.lastName}`;
const day = (ms: number) => iso(ms).slice(0, 10);

/**
 * @param user the learner.
 * @param records the learner's transcript records, oldest first.
 * @param at generation time (emulator clock), epoch ms.
 * @param courseTitle names the course of a record (module rows show their course too).
 * @returns a PDF naming the learner and listing their completions with their courses.
 */
export async function transcriptPdf(user: User, records: readonly Transcript[], at: number, courseTitle: (courseId: number) => string | undefined = () => undefined): Promise<Uint8Array> {
  const shown = records.slice(0, MAX_PDF_ROWS);
  const courseOf = (t: Transcript) => (t.isCourse ? t.title : (courseTitle(t.courseId) ?? `Course ${t.courseId}`));
  const courses = [...new Set(shown.map(courseOf))];
  const w = await writer(
    { Title: `Transcript of ${fullName(user)}`, Author: fullName(user), Subject: 'Learning transcript', Keywords: courses.join('; ') || undefined },
    at,
  );
  w.line('Learning transcript', 20, true);
  w.line(`Learner: ${fullName(user)} <${user.email}>`, 12);
  w.line(`Learner id: ${user.uuid}`);
  w.line(`Generated: ${iso(at)}`);
  w.line(`Completions: ${records.length}`);
  w.line('');
  for (const t of shown) {
    const score = t.score === null ? '' : `  score ${t.score}`;
    const what = t.isCourse ? `Course  ${t.title}` : `Module  ${t.title} (${courseOf(t)})`;
    w.line(`${day(t.completionDate)}  ${what}${score}`, 10, t.isCourse);
  }
  if (records.length > MAX_PDF_ROWS) w.line(`... and ${records.length - MAX_PDF_ROWS} more records`);
  return w.save();
}

/**
 * @param user the learner.
 * @param course the course transcript record.
 * @param at generation time, epoch ms.
 * @returns a certificate PDF naming the learner and the course.
 */
export async function certificatePdf(user: User, course: Transcript, at: number): Promise<Uint8Array> {
  const w = await writer({ Title: `Certificate: ${course.title}`, Author: fullName(user), Subject: course.title }, at);
  w.line('Certificate of Completion', 24, true);
  w.line('');
  w.line('This certifies that', 12);
  w.line(fullName(user), 18, true);
  w.line('has completed the course', 12);
  w.line(course.title, 16, true);
  w.line(`on ${day(course.completionDate)}${course.score === null ? '' : ` with a score of ${course.score}`}.`, 12);
  w.line(`Certificate id: ${course.id}`);
  return w.save();
}

/** @returns a one-page PDF standing in for a document module. */
export async function contentPdf(title: string): Promise<Uint8Array> {
  const w = await writer({ Title: title }, 0);
  w.line(title, 18, true);
  w.line('Document module served by the Partner Learning emulator.');
  return w.save();
}

/**
 * Pads a PDF to about `target` bytes with an incremental update (one extra stream object, its own xref section
 * and a trailer pointing at the original one), streamed in chunks so a 100 MB PDF never sits in memory.
 * @param pdf a PDF written with a classic xref table (`useObjectStreams: false`).
 * @param target the wanted size in bytes.
 * @returns the stream and its exact length.
 */
export function paddedPdf(pdf: Uint8Array, target: number): { stream: ReadableStream<Uint8Array>; length: number } {
  const tail = new TextDecoder('latin1').decode(pdf.subarray(Math.max(0, pdf.length - 1024)));
  const size = Number(/\/Size (\d+)/.exec(tail)?.[1] ?? 0);
  const root = /\/Root (\d+ \d+ R)/.exec(tail)?.[1];
  const info = /\/Info (\d+ \d+ R)/.exec(tail)?.[1];
  const prev = /startxref\s+(\d+)/.exec(tail)?.[1];
  if (!size || !root || !prev) throw new Error('paddedPdf needs a PDF with a classic trailer');
  const padding = Math.max(0, target - pdf.length - 220);
  const head = `\n${size} 0 obj\n<< /Length ${padding} >>\nstream\n`;
  const objectOffset = pdf.length + 1;
  const xrefOffset = pdf.length + head.length + padding + '\nendstream\nendobj\n'.length;
  const trailer =
    `\nendstream\nendobj\nxref\n${size} 1\n${String(objectOffset).padStart(10, '0')} 00000 n\r\n` +
    `trailer\n<< /Size ${size + 1} /Root ${root}${info ? ` /Info ${info}` : ''} /Prev ${prev} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  const encoder = new TextEncoder();
  const parts = [pdf, encoder.encode(head)];
  const end = encoder.encode(trailer);
  const CHUNK = 64 * 1024;
  let left = padding;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const part = parts.shift();
      if (part) return controller.enqueue(part);
      if (left > 0) {
        const n = Math.min(CHUNK, left);
        left -= n;
        return controller.enqueue(new Uint8Array(n).fill(0x20));
      }
      controller.enqueue(end);
      controller.close();
    },
  });
  return { stream, length: pdf.length + head.length + padding + end.length };
}
