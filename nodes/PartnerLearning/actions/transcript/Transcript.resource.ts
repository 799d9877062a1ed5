import type { INodeProperties } from 'n8n-workflow';
import { operationPicker, type Operation } from '../common.ts';
import * as downloadCertificate from './downloadCertificate.operation.ts';
import * as downloadPdf from './downloadPdf.operation.ts';
import * as get from './get.operation.ts';
import * as getAll from './getAll.operation.ts';

/** The transcript operations by value. */
export const operations: Record<string, Operation> = { downloadCertificate, downloadPdf, get, getAll };

/** The operation picker and every transcript operation's parameters. */
export const description: INodeProperties[] = [
  operationPicker('transcript', [
    { name: 'Download Certificate', value: 'downloadCertificate', description: "Download the certificate PDF of a transcript record as a file", action: 'Download a certificate PDF' },
    { name: 'Download PDF', value: 'downloadPdf', description: "Download a learner's full transcript as a PDF file", action: 'Download a transcript PDF' },
    { name: 'Get', value: 'get', description: "Get one of a learner's transcript (completion) records", action: 'Get a transcript record' },
    { name: 'Get Many', value: 'getAll', description: "List a learner's transcript (completion) records", action: 'Get many transcript records' },
  ], 'getAll'),
  ...downloadCertificate.description,
  ...downloadPdf.description,
  ...get.description,
  ...getAll.description,
];
