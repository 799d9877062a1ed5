/**
 * PDFs as n8n binary data: the service's stream goes straight to n8n's binary store (filesystem mode writes it to
 * disk as it arrives), named as the service names the file.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import type { PdfDownload } from '../../../../core/protocol.ts';

/** Where the PDF goes in the output item. */
export const binaryPropertyField: INodeProperties = {
  displayName: 'Put Output File in Field',
  name: 'binaryPropertyName',
  type: 'string',
  default: 'data',
  required: true,
  hint: 'The name of the output binary field to put the PDF in',
};

/**
 * @param ctx The node's `this`.
 * @param pdf The core's download (an unread stream).
 * @param i The item.
 * @returns One item: `json` `{ fileName, mimeType, fileSize }` (`fileSize` in bytes, a number: n8n's own
 *   `binary.fileSize` is a display text such as "12.3 kB"), the PDF in the chosen binary field.
 */
export async function pdfItem(ctx: IExecuteFunctions, pdf: PdfDownload, i: number): Promise<INodeExecutionData[]> {
  const field = String(ctx.getNodeParameter('binaryPropertyName', i, 'data')).trim() || 'data';
  const body = pdf.body as unknown as Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];
  const binary = await ctx.helpers.prepareBinaryData(body, pdf.fileName, 'application/pdf');
  binary.fileName = pdf.fileName;
  binary.mimeType = 'application/pdf';
  return [{
    json: { fileName: pdf.fileName, mimeType: 'application/pdf', fileSize: byteCount(binary.bytes) ?? byteCount(pdf.contentLength) ?? null },
    binary: { [field]: binary },
  }];
}

/** A byte count when it is one (n8n sets `bytes` in filesystem and default modes; the header may be absent). */
function byteCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
