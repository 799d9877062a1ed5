import type { INodeProperties } from 'n8n-workflow';
import { operationPicker, type Operation } from '../common.ts';
import * as get from './get.operation.ts';
import * as getAll from './getAll.operation.ts';

/** The progress operations by value. */
export const operations: Record<string, Operation> = { get, getAll };

/** The operation picker and every progress operation's parameters. */
export const description: INodeProperties[] = [
  operationPicker('progress', [
    { name: 'Get', value: 'get', description: "Get one of a learner's course progress records", action: 'Get a progress record' },
    { name: 'Get Many', value: 'getAll', description: "List a learner's course progress records", action: 'Get many progress records' },
  ], 'getAll'),
  ...get.description,
  ...getAll.description,
];
