/**
 * PDF downloads (transcript, certificate) as streams: the body is handed over unread, never buffered.
 */
import type { CallOptions } from './types/calls.ts';
import type { PdfDownload } from './types/records.ts';
import type { ApiRequest, Transport } from './transport.ts';
import { unexpectedAnswer } from './local-errors.ts';
import { send } from './resources/call.ts';

/**
 * The file name a `Content-Disposition` header gives: `filename*=UTF-8''…` (RFC 6266/8187) first, then
 * `filename="…"` or a bare token. Path separators and control characters are removed, so the name is safe to
 * write to disk as is.
 *
 * @param header The header value, or `null`.
 * @returns The file name, or `undefined` when the header names none.
 */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  let name: string | undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      name = decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      name = undefined;
    }
  }
  if (name === undefined) {
    const quoted = /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
    const bare = /(?:^|;)\s*filename\s*=\s*([^";\s]+)/i.exec(header);
    name = quoted?.[1]?.replace(/\\(.)/g, '$1') ?? bare?.[1];
  }
  if (name === undefined) return undefined;
  // eslint-disable-next-line no-control-regex
  const safe = name.replace(/[\u0000-\u001f\u007f]/g, '').replace(/^.*[\\/]/, '').trim();
  return safe === '' || safe === '.' || safe === '..' ? undefined : safe;
}

function mediaType(header: string | null): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Sends a PDF request and checks the answer is a PDF.
 *
 * @param transport Sends the request.
 * @param request A GET with `path` and `userId`; `responseType` is set to `stream` here.
 * @param defaultFileName Used when the service names no file.
 * @param options Checked call options (signal, retry, timeout, onResponse).
 * @returns The {@link PdfDownload}; read `body` once.
 * @throws {ApplicationError} when the answer is not `application/pdf` (its body is cancelled, not read) or empty.
 */
export async function downloadPdf(
  transport: Transport,
  request: ApiRequest,
  defaultFileName: string,
  options?: CallOptions,
): Promise<PdfDownload> {
  const response = await send<ReadableStream<Uint8Array> | null>(transport, { ...request, responseType: 'stream' }, options);
  const context = {
    method: request.method,
    url: `${transport.baseUrl}${request.path ?? ''}`,
    status: response.status,
    requestId: response.requestId,
  };
  const contentType = response.headers.get('content-type');
  if (mediaType(contentType) !== 'application/pdf') {
    await response.data?.cancel().catch(() => undefined);
    throw unexpectedAnswer(
      `Expected a PDF (application/pdf) but the service answered ` +
        `${contentType ? `"${mediaType(contentType)}"` : 'without a Content-Type'} (status ${response.status}); ` +
        'check the transcript id and that the base URL points at the Partner Learning API.',
      context,
    );
  }
  if (!response.data) {
    throw unexpectedAnswer('The service answered with an empty body where a PDF was expected.', context);
  }
  const download: PdfDownload = {
    body: response.data,
    contentType: contentType!,
    fileName: fileNameFromDisposition(response.headers.get('content-disposition')) ?? defaultFileName,
  };
  const length = response.headers.get('content-length');
  if (length !== null && /^\d+$/.test(length.trim())) download.contentLength = Number(length.trim());
  return download;
}
