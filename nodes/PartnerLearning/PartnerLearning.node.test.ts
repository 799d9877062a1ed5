import { expect, it } from 'vitest';
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { PartnerLearning } from './PartnerLearning.node.ts';
it('the subtitle reads as the editor labels (Get Many: Course), evaluated by n8n-workflow', () => {
  const node = new PartnerLearning();
  const n = { id: '1', name: 'PL', type: 'x.partnerLearning', typeVersion: 1, position: [0, 0] as [number, number], parameters: { resource: 'course', operation: 'getAll' } };
  const types = { getByName: () => node, getByNameAndVersion: () => node, getKnownTypes: () => ({}) };
  const wf = new Workflow({ nodes: [n], connections: {}, active: false, nodeTypes: types as never });
  const v = wf.expression.getSimpleParameterValue(n, node.description.subtitle!, 'internal', {});
  expect(v).toBe('Get Many: Course');
});

it('as an AI-agent tool, and only there, the node says what n8n 1.x does with a tool error', () => {
  const node = new PartnerLearning();
  const notice = node.description.properties.find((p) => p.name === 'toolErrorsNotice')!;
  expect(notice.type).toBe('notice');
  expect(notice.displayName).toMatch(/n8n 1\.x.*ends the agent's run/);
  const values = { resource: 'user', operation: 'get' };
  const asTool = { ...node.description, name: 'partnerLearningTool' };
  expect(NodeHelpers.displayParameter(values, notice, { typeVersion: 1 }, asTool)).toBe(true);
  expect(NodeHelpers.displayParameter(values, notice, { typeVersion: 1 }, node.description)).toBe(false);
});
