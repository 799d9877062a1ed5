import type { INodeProperties } from 'n8n-workflow';
import { operationPicker, type Operation } from '../common.ts';
import * as get from './get.operation.ts';
import * as getAll from './getAll.operation.ts';

/** The module operations by value. */
export const operations: Record<string, Operation> = { get, getAll };

/** The operation picker and every module operation's parameters. */
export const description: INodeProperties[] = [
  operationPicker('module', [
    { name: 'Get', value: 'get', description: "Get a module by ID", action: 'Get a module' },
    { name: 'Get Many', value: 'getAll', description: "List modules, optionally only those updated after an instant", action: 'Get many modules' },
  ], 'getAll'),
  ...get.description,
  ...getAll.description,
];
