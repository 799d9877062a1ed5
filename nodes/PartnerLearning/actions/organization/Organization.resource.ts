import type { INodeProperties } from 'n8n-workflow';
import { operationPicker, type Operation } from '../common.ts';
import * as get from './get.operation.ts';
import * as getAll from './getAll.operation.ts';

/** The organization operations by value. */
export const operations: Record<string, Operation> = { get, getAll };

/** The operation picker and every organization operation's parameters. */
export const description: INodeProperties[] = [
  operationPicker('organization', [
    { name: 'Get', value: 'get', description: "Get an organization by ID", action: 'Get an organization' },
    { name: 'Get Many', value: 'getAll', description: "List organizations", action: 'Get many organizations' },
  ], 'getAll'),
  ...get.description,
  ...getAll.description,
];
