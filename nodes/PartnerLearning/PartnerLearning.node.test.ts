import { expect, it } from 'vitest';
import { Workflow } from 'n8n-workflow';
import { PartnerLearning } from './PartnerLearning.node.ts';
it('the subtitle reads as the editor labels (Get Many: Course), evaluated by n8n-workflow', () => {
  const node = new PartnerLearning();
  const n = { id: '1', name: 'PL', type: 'x.partnerLearning', typeVersion: 1, position: [0, 0] as [number, number], parameters: { resource: 'course', operation: 'getAll' } };
  const types = { getByName: () => node, getByNameAndVersion: () => node, getKnownTypes: () => ({}) };
  const wf = new Workflow({ nodes: [n], connections: {}, active: false, nodeTypes: types as never });
  const v = wf.expression.getSimpleParameterValue(n, node.description.subtitle!, 'internal', {});
  expect(v).toBe('Get Many: Course');
});
