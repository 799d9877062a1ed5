import type { INodeProperties } from 'n8n-workflow';
import { operationPicker, type Operation } from '../common.ts';
import * as deactivate from './deactivate.operation.ts';
import * as erase from './delete.operation.ts';
import * as get from './get.operation.ts';
import * as reactivate from './reactivate.operation.ts';
import * as register from './register.operation.ts';
import * as update from './update.operation.ts';

/** The user operations by value. */
export const operations: Record<string, Operation> = { deactivate, delete: erase, get, reactivate, register, update };

/** The operation picker and every user operation's parameters. */
export const description: INodeProperties[] = [
  operationPicker('user', [
    { name: 'Deactivate', value: 'deactivate', description: "Deactivate a learner (reversible)", action: 'Deactivate a learner' },
    { name: 'Delete', value: 'delete', description: "Erase a learner for good (not reversible)", action: 'Delete a learner' },
    { name: 'Get', value: 'get', description: "Get a learner profile by UUID", action: 'Get a learner' },
    { name: 'Reactivate', value: 'reactivate', description: "Reactivate a deactivated learner", action: 'Reactivate a learner' },
    { name: 'Register', value: 'register', description: "Register a learner by e-mail (returns the existing learner when already registered)", action: 'Register a learner' },
    { name: 'Update', value: 'update', description: "Change fields of a learner profile", action: 'Update a learner' },
  ], 'register'),
  ...deactivate.description,
  ...erase.description,
  ...get.description,
  ...reactivate.description,
  ...register.description,
  ...update.description,
];
