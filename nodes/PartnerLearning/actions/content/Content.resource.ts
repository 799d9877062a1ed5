import type { INodeProperties } from 'n8n-workflow';
import { operationPicker, type Operation } from '../common.ts';
import * as get from './get.operation.ts';
import * as refresh from './refresh.operation.ts';

/** The content operations by value. */
export const operations: Record<string, Operation> = { get, refresh };

/** The operation picker and every content operation's parameters. */
export const description: INodeProperties[] = [
  operationPicker('content', [
    { name: 'Get', value: 'get', description: "Get a short-lived content URL of a module for a learner (starts their progress)", action: 'Get module content for a learner' },
    { name: 'Refresh', value: 'refresh', description: "Get a fresh content URL for a module a learner is playing", action: 'Refresh a module content URL' },
  ], 'get'),
  ...get.description,
  ...refresh.description,
];
