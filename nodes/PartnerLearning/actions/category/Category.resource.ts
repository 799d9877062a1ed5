import type { INodeProperties } from 'n8n-workflow';
import { operationPicker, type Operation } from '../common.ts';
import * as get from './get.operation.ts';
import * as getAll from './getAll.operation.ts';

/** The category operations by value. */
export const operations: Record<string, Operation> = { get, getAll };

/** The operation picker and every category operation's parameters. */
export const description: INodeProperties[] = [
  operationPicker('category', [
    { name: 'Get', value: 'get', description: "Get a category by ID", action: 'Get a category' },
    { name: 'Get Many', value: 'getAll', description: "List categories, optionally only those updated after an instant", action: 'Get many categories' },
  ], 'getAll'),
  ...get.description,
  ...getAll.description,
];
