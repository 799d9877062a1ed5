import { describe, expect, it } from 'vitest';
import { PartnerLearning } from '../PartnerLearning.node.ts';

const properties = new PartnerLearning().description.properties;
const toolDescription = (resource: string, operation: string) => properties.find((p) => p.name === 'toolDescription'
  && p.displayOptions?.show?.['resource']?.includes(resource) && p.displayOptions.show['operation']?.includes(operation));

describe('tool descriptions (what an AI agent reads)', () => {
  it('gives every operation one, shown only in tool mode', () => {
    const pickers = properties.filter((p) => p.name === 'operation');
    const count = pickers.reduce((sum, p) => sum + (p.options?.length ?? 0), 0);
    const tools = properties.filter((p) => p.name === 'toolDescription');
    expect(tools).toHaveLength(count);
    for (const tool of tools) expect(tool.displayOptions?.show?.['@tool']).toEqual([true]);
  });

  it('carries the operation text and what each parameter means, ids typed', () => {
    const register = String(toolDescription('user', 'register')?.default);
    expect(register).toMatch(/^Register a learner by e-mail/);
    expect(register).toMatch(/Organization \(numeric ID\): .*Get Many/);
    expect(String(toolDescription('user', 'get')?.default)).toMatch(/User ID: The learner's UUID.*Register/);
  });
});
