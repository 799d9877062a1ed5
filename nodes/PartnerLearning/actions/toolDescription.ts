/**
 * The description an AI agent reads for each operation when the node is used as a tool. n8n's automatic text is
 * "<action> in Partner Learning" and omits what each parameter means; n8n adds its own `toolDescription` parameter
 * only when a node has none, so the node brings one per operation (tool mode only), defaulting to the operation's
 * own description plus each parameter's description (types and where IDs come from).
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

function shownFor(property: INodeProperties, resource: string, operation: string): boolean {
  const show = property.displayOptions?.show;
  return Boolean(show?.['resource']?.includes(resource) && show['operation']?.includes(operation));
}

/**
 * @param properties The node's parameters (resource picker, every operation picker and their parameters).
 * @returns One `toolDescription` parameter per resource and operation, shown only in tool mode.
 */
export function toolDescriptions(properties: INodeProperties[]): INodeProperties[] {
  return properties
    .filter((p) => p.name === 'operation')
    .flatMap((picker) => {
      const resource = String(picker.displayOptions?.show?.['resource']?.[0] ?? '');
      return (picker.options as INodePropertyOptions[]).map((option) => {
        const operation = String(option.value);
        const parameters = properties
          .filter((p) => shownFor(p, resource, operation) && p.description && p.type !== 'collection')
          .map((p) => `${p.displayName}${p.type === 'resourceLocator' ? ' (numeric ID)' : ''}: ${p.description}`);
        return {
          displayName: 'Description',
          name: 'toolDescription',
          type: 'string',
          typeOptions: { rows: 4 },
          displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
          default: [`${option.description ?? String(option.name)}.`, ...parameters].join(' '),
          description: 'What the AI agent reads about this tool: the operation and what each parameter means',
        } satisfies INodeProperties;
      });
    });
}
