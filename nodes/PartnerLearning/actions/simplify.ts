/**
 * "Simplify Output": the service answers in JSON-LD, so every record carries `@context`, `@id` and `@type`. They
 * mean nothing to a workflow or an AI agent and clutter n8n's Table view; Simplify drops them (at any depth).
 */
import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** The node-wide switch (on by default, as in n8n's own nodes that offer it). */
export const simplifyField: INodeProperties = {
  displayName: 'Simplify Output',
  name: 'simplify',
  type: 'boolean',
  default: true,
  description: 'Whether to drop the JSON-LD keys (those starting with @, such as @context and @type) the service adds to every record. Other fields are kept as the service sends them.',
};

/**
 * @param value A record (or part of one) from the service.
 * @returns The same value without keys starting with `@`.
 */
export function withoutJsonLd(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutJsonLd);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(([key]) => !key.startsWith('@')).map(([key, v]) => [key, withoutJsonLd(v)]),
  );
}

/**
 * @param items An operation's output items.
 * @returns The items with their `json` simplified (binary untouched).
 */
export function simplifyItems(items: INodeExecutionData[]): INodeExecutionData[] {
  return items.map((item) => ({ ...item, json: withoutJsonLd(item.json) as IDataObject }));
}
