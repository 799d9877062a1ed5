import { describe, expect, it } from 'vitest';
import type { IDataObject } from 'n8n-workflow';
import { emulatorCredential, fakeContext } from '../../test/n8n/support/fake-n8n.ts';
import { router } from '../PartnerLearning/actions/router.ts';
import { PartnerLearningTrigger } from './PartnerLearningTrigger.node.ts';
import type { TriggerState } from './watermark.ts';

const rl = (value: number) => ({ __rl: true, mode: 'id', value: String(value) });

async function act(setup: ReturnType<typeof emulatorCredential>, parameters: IDataObject) {
  const [out] = await router.call(fakeContext({ ...setup, parameters }));
  return out![0]!.json;
}

describe('partnerLearningTrigger (polling), n8n mocked, emulator in-process', () => {
  const trigger = new PartnerLearningTrigger();

  it('learnerCompleted: the first poll only sets the watermark; changes come once; a manual test does not move it', async () => {
    const setup = emulatorCredential();
    const user = await act(setup, {
      resource: 'user', operation: 'register', email: 'watch@example.com', firstName: 'W', lastName: 'Atch',
      organizationId: rl(1), additionalFields: {},
    });
    await act(setup, { resource: 'completion', operation: 'complete', moduleId: rl(1), userId: user.uuid });
    const staticData: TriggerState & IDataObject = {};
    const poll = (mode: 'trigger' | 'manual' = 'trigger') =>
      trigger.poll.call(fakeContext({ ...setup, parameters: { event: 'learnerCompleted', userIds: `${String(user.uuid)}, ` }, staticData, mode }));

    expect(await poll()).toBeNull();
    const watermark = structuredClone(staticData.learners![String(user.uuid)]);
    expect(watermark?.updatedAt).toBeTruthy();

    setup.emulator.advanceClock(5);
    await act(setup, { resource: 'completion', operation: 'complete', moduleId: rl(2), userId: user.uuid });
    const changed = await poll();
    expect(changed![0]!.map((item) => item.json.userId)).toEqual([user.uuid]);
    expect(changed![0]).toHaveLength(1);
    expect(await poll()).toBeNull();

    const moved = structuredClone(staticData.learners![String(user.uuid)]);
    const sample = await poll('manual');
    expect(sample![0]).toHaveLength(1);
    expect(staticData.learners![String(user.uuid)]).toEqual(moved);
    expect(moved).not.toEqual(watermark);
  });

  it('courseUpdated: nothing on the first poll, then nothing while nothing changes', async () => {
    const setup = emulatorCredential();
    const staticData: IDataObject = {};
    const poll = () => trigger.poll.call(fakeContext({ ...setup, parameters: { event: 'courseUpdated' }, staticData }));
    expect(await poll()).toBeNull();
    expect((staticData as TriggerState).courses?.updatedAt).toBeTruthy();
    expect(await poll()).toBeNull();
  });

  it('an empty learner list is refused with a message that says what to give', async () => {
    const setup = emulatorCredential();
    await expect(trigger.poll.call(fakeContext({ ...setup, parameters: { event: 'learnerCompleted', userIds: ' , ' } })))
      .rejects.toThrow(/User IDs/);
  });
});
