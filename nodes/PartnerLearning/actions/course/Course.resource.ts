import type { INodeProperties } from 'n8n-workflow';
import { operationPicker, type Operation } from '../common.ts';
import * as get from './get.operation.ts';
import * as getAll from './getAll.operation.ts';

/** The course operations by value. */
export const operations: Record<string, Operation> = { get, getAll };

/** The operation picker and every course operation's parameters. */
export const description: INodeProperties[] = [
  operationPicker('course', [
    { name: 'Get', value: 'get', description: "Get a course with its modules by ID", action: 'Get a course' },
    { name: 'Get Many', value: 'getAll', description: "List published courses, optionally only those updated after an instant", action: 'Get many courses' },
  ], 'getAll'),
  ...get.description,
  ...getAll.description,
];
