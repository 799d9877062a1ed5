import type { PDFPage } from 'pdf-lib';
import { iso } from './clock.ts';
import { centred, fit, ink, newPdf, sizeToFit } from './pdf-doc.ts';
import type { PdfKit } from './pdf-doc.ts';
import type { Transcript, User } from './types.ts';

/** Rows drawn in a transcript PDF; the rest are summarised in one line so 100,000 records stay cheap. */
export const MAX_PDF_ROWS = 500;

const fullName = (u: User) => `${u.firstName} ${u.lastName}`;
const day = (ms: number) => iso(ms).slice(0, 10);

/** Transcript table columns: x offset from the left margin and width, in points (A4 portrait, 40 pt margins). */
const columns = [
  { title: 'Date', width: 62 },
  { title: 'Type', width: 50 },
  { title: 'Title', width: 190 },
  { title: 'Course', width: 170 },
  { title: 'Score', width: 43 },
] as const;
const LEFT = 40;
const ROW = 18;

function tableHeader(kit: PdfKit, page: PDFPage, y: number): void {
  page.drawRectangle({ x: LEFT, y: y - 5, width: 515, height: ROW, color: ink.navy });
  let x = LEFT + 6;
  for (const c of columns) {
    page.drawText(c.title, { x, y, size: 9, font: kit.bold, color: ink.white });
    x += c.width;
  }
}

function footer(kit: PdfKit, page: PDFPage, name: string, n: number, of: number): void {
  page.drawLine({ start: { x: LEFT, y: 48 }, end: { x: 555, y: 48 }, thickness: 0.5, color: ink.muted });
  page.drawText(fit(kit.sans, kit.clean(`Transcript of ${name}`), 8, 380), { x: LEFT, y: 36, size: 8, font: kit.sans, color: ink.muted });
  const label = `Page ${n} of ${of}`;
  page.drawText(label, { x: 555 - kit.sans.widthOfTextAtSize(label, 8), y: 36, size: 8, font: kit.sans, color: ink.muted });
}

/**
 * @param user the learner.
 * @param records the learner's transcript records, oldest first.
 * @param at generation time (emulator clock), epoch ms.
 * @param courseTitle names the course of a record (module rows show their course too).
 * @returns an A4 PDF naming the learner and listing their completions as a table (date, type, title, course, score).
 */
export async function transcriptPdf(user: User, records: readonly Transcript[], at: number, courseTitle: (courseId: number) => string | undefined = () => undefined): Promise<Uint8Array> {
  const shown = records.slice(0, MAX_PDF_ROWS);
  const courseOf = (t: Transcript) => (t.isCourse ? t.title : (courseTitle(t.courseId) ?? `Course ${t.courseId}`));
  const courses = [...new Set(shown.map(courseOf))];
  const name = fullName(user);
  const kit = await newPdf({ Title: `Transcript of ${name}`, Author: name, Subject: 'Learning transcript', Keywords: courses.join('; ') || undefined }, at);
  const { doc, sans, bold, clean } = kit;
  let page = doc.addPage([595, 842]);
  page.drawRectangle({ x: 0, y: 762, width: 595, height: 80, color: ink.navy });
  page.drawText('Learning transcript', { x: LEFT, y: 795, size: 24, font: kit.serif, color: ink.white });
  page.drawText('Partner Learning Service', { x: LEFT, y: 775, size: 10, font: sans, color: ink.white });
  let y = 728;
  page.drawText(fit(bold, clean(name), 16, 515), { x: LEFT, y, size: 16, font: bold, color: ink.text });
  const facts = [`E-mail: ${user.email}`, `Learner id: ${user.uuid}`, `Generated: ${iso(at)}`, `Completions: ${records.length} (${records.filter((t) => t.isCourse).length} courses)`];
  for (const fact of facts) {
    y -= 16;
    page.drawText(fit(sans, clean(fact), 10, 515), { x: LEFT, y, size: 10, font: sans, color: ink.muted });
  }
  y -= 34;
  tableHeader(kit, page, y);
  if (shown.length === 0) page.drawText('No completions yet.', { x: LEFT + 6, y: y - ROW - 4, size: 10, font: sans, color: ink.muted });
  shown.forEach((t, i) => {
    y -= ROW;
    if (y < 70) {
      page = doc.addPage([595, 842]);
      y = 790;
      tableHeader(kit, page, y);
      y -= ROW;
    }
    if (i % 2 === 1) page.drawRectangle({ x: LEFT, y: y - 5, width: 515, height: ROW, color: ink.band });
    const cells = [day(t.completionDate), t.isCourse ? 'Course' : 'Module', t.title, t.isCourse ? '' : courseOf(t), t.score === null ? '' : String(t.score)];
    let x = LEFT + 6;
    cells.forEach((cell, c) => {
      const font = t.isCourse && c === 2 ? bold : sans;
      page.drawText(fit(font, clean(cell), 9, columns[c]!.width - 8), { x, y, size: 9, font, color: ink.text });
      x += columns[c]!.width;
    });
  });
  if (records.length > MAX_PDF_ROWS) {
    y -= ROW + 4;
    if (y < 70) {
      page = doc.addPage([595, 842]);
      y = 790;
    }
    page.drawText(`… and ${records.length - MAX_PDF_ROWS} more records (fetch GET /transcripts for all of them)`, { x: LEFT, y, size: 9, font: sans, color: ink.muted });
  }
  const pages = doc.getPages();
  pages.forEach((p, i) => footer(kit, p, name, i + 1, pages.length));
  return doc.save({ useObjectStreams: false });
}

/**
 * @param user the learner.
 * @param course the course transcript record.
 * @param at generation time, epoch ms.
 * @returns a landscape A4 certificate: title, the learner's name large and centred, the course, the completion date,
 *   the score where there is one, an issuer line and a border.
 */
export async function certificatePdf(user: User, course: Transcript, at: number): Promise<Uint8Array> {
  const name = fullName(user);
  const kit = await newPdf({ Title: `Certificate: ${course.title}`, Author: name, Subject: course.title }, at);
  const { doc, sans, bold, serif, clean } = kit;
  const page = doc.addPage([842, 595]);
  page.drawRectangle({ x: 0, y: 0, width: 842, height: 595, color: ink.cream });
  page.drawRectangle({ x: 18, y: 18, width: 806, height: 559, borderColor: ink.navy, borderWidth: 3 });
  page.drawRectangle({ x: 28, y: 28, width: 786, height: 539, borderColor: ink.gold, borderWidth: 1 });
  centred(page, sans, 'PARTNER LEARNING SERVICE', 510, 11, ink.gold);
  centred(page, serif, 'Certificate of Completion', 462, 34, ink.navy);
  centred(page, sans, 'This certifies that', 412, 13, ink.muted);
  const shownName = clean(name);
  const nameSize = sizeToFit(serif, shownName, 40, 18, 680);
  centred(page, serif, shownName, 356, nameSize, ink.text);
  page.drawLine({ start: { x: 221, y: 342 }, end: { x: 621, y: 342 }, thickness: 1, color: ink.gold });
  centred(page, sans, 'has successfully completed the course', 306, 13, ink.muted);
  const shownCourse = clean(course.title);
  centred(page, bold, shownCourse, 268, sizeToFit(bold, shownCourse, 22, 12, 680), ink.navy);
  const score = course.score === null ? '' : `  ·  Score ${course.score}`;
  centred(page, sans, clean(`Completed on ${day(course.completionDate)}${score}`), 232, 13, ink.text);
  // Issuer (left) and certificate number (right) above signature-style rules; a seal between them.
  page.drawLine({ start: { x: 90, y: 128 }, end: { x: 330, y: 128 }, thickness: 0.8, color: ink.muted });
  centred(page, bold, 'Partner Learning Service', 110, 11, ink.text, 240, 210);
  centred(page, sans, 'Issuer (local emulator: not a real credential)', 95, 9, ink.muted, 240, 210);
  page.drawLine({ start: { x: 512, y: 128 }, end: { x: 752, y: 128 }, thickness: 0.8, color: ink.muted });
  centred(page, bold, `Certificate no. ${course.id}`, 110, 11, ink.text, 240, 632);
  centred(page, sans, `Issued ${day(at)}`, 95, 9, ink.muted, 240, 632);
  page.drawCircle({ x: 421, y: 120, size: 38, borderColor: ink.gold, borderWidth: 2, color: ink.cream });
  page.drawCircle({ x: 421, y: 120, size: 31, borderColor: ink.gold, borderWidth: 0.8 });
  centred(page, serif, 'PL', 112, 22, ink.gold, 60, 421);
  return doc.save({ useObjectStreams: false });
}

/** @returns a one-page PDF standing in for a document module. */
export async function contentPdf(title: string): Promise<Uint8Array> {
  const { doc, sans, bold, clean } = await newPdf({ Title: title }, 0);
  const page = doc.addPage([595, 842]);
  page.drawText(fit(bold, clean(title), 18, 495), { x: 50, y: 780, size: 18, font: bold, color: ink.navy });
  page.drawText('Document module served by the Partner Learning emulator.', { x: 50, y: 752, size: 10, font: sans, color: ink.text });
  return doc.save({ useObjectStreams: false });
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
