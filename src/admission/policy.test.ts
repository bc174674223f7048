import { afterEach, describe, expect, it } from 'vitest';
import type { AudienceClass } from '../keys.ts';
import type { Observation } from '../ports.ts';
import { PolicyState, type PolicyGrants } from './policy.ts';
import { ACME, startHarness, toolWith, type Harness } from './testing/host-harness.ts';
import { VirtualTime } from './testing/virtual-time.ts';

function policy(poll?: (audience: AudienceClass) => Promise<PolicyGrants>) {
  const time = new VirtualTime();
  const events: (Extract<Observation, { type: 'policy_seen' }> & { t: number })[] = [];
  const emit = (event: Observation): void => {
    if (event.type !== 'policy_seen') throw new Error(`PolicyState emitted ${event.type}`);
    events.push({ ...event, t: time.now() });
  };
  const state = new PolicyState({
    scheduler: time,
    sink: { emit },
    source: poll === undefined ? undefined : { poll },
    pollIntervalMs: 100,
  });
  return { time, events, state };
}

describe('PolicyState', () => {
  it('holds nothing at epoch 0 before the first update', () => {
    const { state } = policy();
    expect([state.epoch(ACME), state.holds(ACME, 'read_file'), state.grants(ACME)]).toEqual([0, false, []]);
  });

  it('applies a push only if its epoch is higher, and reports each applied one as policy_seen', () => {
    const { state, events } = policy();
    expect(state.push({ audience: ACME, epoch: 2, grants: ['write_file', 'read_file'] })).toBe(true);
    expect(state.push({ audience: ACME, epoch: 1, grants: [] })).toBe(false);
    expect(state.push({ audience: ACME, epoch: 2, grants: [] })).toBe(false);
    expect([state.epoch(ACME), state.grants(ACME), state.holds(ACME, 'read_file')]).toEqual([
      2,
      ['read_file', 'write_file'],
      true,
    ]);
    expect(state.push({ audience: ACME, epoch: 3, grants: ['write_file'] })).toBe(true);
    expect(state.holds(ACME, 'read_file')).toBe(false);
    expect(state.epoch({ tenant: 'globex', role: 'dev' })).toBe(0);
    expect(events).toEqual([
      { type: 'policy_seen', audience: 'acme.dev', epoch: 2, via: 'push', t: 0 },
      { type: 'policy_seen', audience: 'acme.dev', epoch: 3, via: 'push', t: 0 },
    ]);
  });

  it('ignores malformed updates', () => {
    const { state, events } = policy();
    for (const update of [
      { epoch: 0, grants: [] },
      { epoch: 1.5, grants: [] },
      { epoch: 1, grants: 'read_file' },
      { epoch: 1, grants: [1] },
    ]) {
      expect(state.push({ audience: ACME, ...(update as unknown as PolicyGrants) })).toBe(false);
    }
    expect(events).toEqual([]);
  });

  it('polls a tracked audience at once and then every pollIntervalMs through the scheduler, recovering a lost push', async () => {
    let served: PolicyGrants = { epoch: 1, grants: ['read_file'] };
    const asked: number[] = [];
    const { state, events, time } = policy(async () => {
      asked.push(time.now());
      return served;
    });
    state.track(ACME);
    state.track(ACME);
    await time.advance(0);
    expect([state.epoch(ACME), asked]).toEqual([1, [0]]);
    served = { epoch: 2, grants: [] }; // its push is lost
    await time.advance(99);
    expect(state.holds(ACME, 'read_file')).toBe(true);
    await time.advance(1);
    expect([state.epoch(ACME), state.holds(ACME, 'read_file'), asked]).toEqual([2, false, [0, 100]]);
    await time.advance(100);
    expect(events.map((event) => [event.t, event.epoch, event.via])).toEqual([
      [0, 1, 'poll'],
      [100, 2, 'poll'],
    ]);
    state.stop();
    await time.advance(1_000);
    expect(asked).toEqual([0, 100, 200]);
  });

  it('keeps polling after a failed poll and never goes back on a late reply', async () => {
    const replies: (() => Promise<PolicyGrants>)[] = [
      async () => {
        throw new Error('unreachable');
      },
      async () => ({ epoch: 3, grants: ['a'] }),
      async () => ({ epoch: 2, grants: ['b'] }),
    ];
    const { state, time } = policy(() => (replies.shift() ?? (async () => ({ epoch: 3, grants: ['a'] })))());
    state.track(ACME);
    await time.advance(0);
    expect(state.epoch(ACME)).toBe(0);
    await time.advance(200);
    expect([state.epoch(ACME), state.grants(ACME)]).toEqual([3, ['a']]);
  });
});

describe('discovery reads the same policy state as the gate', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('a scan records the pushed epoch, and a push during a scan ends it POLICY_EPOCH_CHANGED', async () => {
    const h = (harness = await startHarness({ tools: [toolWith('read_file')] }));
    expect(h.of('scan_started')[0]?.policyEpoch).toBe(0);
    h.grant(['read_file']);
    await h.refresh();
    expect(h.of('scan_started')[1]?.policyEpoch).toBe(1);
    expect(h.of('published').map((event) => event.generation)).toEqual([1, 2]);
    const scan = h.refreshers[0]?.refreshNow();
    h.grant([]);
    await scan;
    expect(h.of('scan_ended').at(-1)).toMatchObject({ state: 'INCOMPLETE', reason: 'POLICY_EPOCH_CHANGED' });
    expect(h.of('policy_seen').map((event) => [event.epoch, event.via])).toEqual([
      [1, 'push'],
      [2, 'push'],
    ]);
  });
});
