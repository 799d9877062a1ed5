import type { INodeProperties } from 'n8n-workflow';
import type { Operation } from '../common.ts';
import * as get from './get.operation.ts';
import * as getAll from './getAll.operation.ts';

/** The organization operations by value. */
export const operations: Record<string, Operation> = { get, getAll };

/** The operation picker and every organization operation's parameters. */
export const description: INodeProperties[] = [
  {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: ['organization'] } },
    options: [
      { name: 'Get', value: 'get', description: "Get an organization by ID", action: 'Get an organization' },
      { name: 'Get Many', value: 'getAll', description: "List organizations", action: 'Get many organizations' },
    ],
    default: 'getAll',
  },
  ...get.description,
  ...getAll.description,
];
