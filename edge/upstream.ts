/**
 * What a route hands back from the core: the service's status, request id and body (JSON, nothing, or a PDF
 * stream), taken from the core's `onResponse` report where the core gives one. Nothing here speaks HTTP to the
 * service; the core does.
 */
import type { PdfDownload } from '../core/index.ts';

/** The service's answer to one relayed call. */
export type Upstream =
  | { kind: 'json'; status: number; body: unknown; contentType?: string; requestId?: string }
  | { kind: 'empty'; status: number; requestId?: string }
  | { kind: 'pdf'; status: number; pdf: PdfDownload; disposition?: string; requestId?: string };

/** The core's report of one response (`ResponseInfo`): status, request id, allowlisted headers, parsed body. */
export interface ResponseReport {
  status: number;
  requestId?: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** Per-call options the relay passes to every core call. */
export interface RelayCallOptions {
  /** Aborted when the caller goes away. */
  signal: AbortSignal;
  /** What is left of the relay's deadline for this request. */
  deadlineMs: number;
  onResponse: (report: ResponseReport) => void;
}

/** Collects the core's report of a call, so the relay answers with the service's own status and request id. */
export class UpstreamCapture {
  report: ResponseReport | undefined;
  readonly options: RelayCallOptions;

  /** @param limits The caller's signal and the deadline left, passed to the core call. */
  constructor(limits: { signal: AbortSignal; deadlineMs: number }) {
    this.options = { ...limits, onResponse: (report) => { this.report = report; } };
  }

  /**
   * @param data What the core call resolved with.
   * @param status The route's documented status, used when the core reported none.
   * @returns A JSON answer: the service's body exactly as sent when reported, else the call's result.
   */
  json(data: unknown, status = 200): Upstream {
    const r = this.report;
    const body = r && r.body !== undefined ? r.body : data;
    return { kind: 'json', status: r?.status ?? status, body, contentType: r?.headers['content-type'], requestId: r?.requestId };
  }

  /**
   * @param status The route's documented status.
   * @returns An answer without body.
   */
  empty(status: number): Upstream {
    return { kind: 'empty', status: this.report?.status ?? status, requestId: this.report?.requestId };
  }

  /**
   * @param pdf The core's stream.
   * @returns A PDF answer (streamed through, never buffered).
   */
  pdf(pdf: PdfDownload): Upstream {
    const r = this.report;
    return { kind: 'pdf', status: r?.status ?? 200, pdf, disposition: r?.headers['content-disposition'], requestId: r?.requestId };
  }
}
