import type { INodeProperties } from 'n8n-workflow';
import { operationPicker, type Operation } from '../common.ts';
import * as complete from './complete.operation.ts';

/** The completion operations by value. */
export const operations: Record<string, Operation> = { complete };

/** The operation picker and every completion operation's parameters. */
export const description: INodeProperties[] = [
  operationPicker('completion', [
    { name: 'Complete', value: 'complete', description: "Mark a module completed for a learner", action: 'Complete a module for a learner' },
  ], 'complete'),
  ...complete.description,
];
