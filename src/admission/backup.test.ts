/**
 * Backup endpoints (`CatalogHost.attachBackup`, SPEC section 9; seed 004: a backup is used only
 * if it serves the same contract version): a call that finds the key's own connection down fails
 * over to a backup only when the backup lists the descriptor the session's run pinned; otherwise it
 * is refused VERSION_INCOMPATIBLE and nothing is sent. Without a registry, or with the primary up,
 * no backup is asked.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedPair, type ScriptedPair } from '../../test/support/scripted-server.ts';
import { InMemoryCapabilityStore } from '../capability/capability-store.ts';
import { ConnectedPageSource } from '../discovery/connected-source.ts';
import { ACME, startHarness, toolWith, type Harness } from './testing/host-harness.ts';

const READ = toolWith('read_file', { path: { type: 'string' } });
/** The same tool name with another contract: a new required input. */
const READ_OTHER = toolWith('read_file', { path: { type: 'string' }, mode: { type: 'string' } });

let harness: Harness | undefined;
const backups: ScriptedPair[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const pair of backups.splice(0)) await pair.close();
});

/** A harness whose host has a capability registry (unless `registry` is false) and one backup listing `backupTools`. */
async function withBackup(
  backupTools: Record<string, unknown>[],
  registry = true,
): Promise<{ h: Harness; store: InMemoryCapabilityStore; backup: () => ScriptedPair | undefined }> {
  const store = new InMemoryCapabilityStore();
  const h = await startHarness({
    tools: [READ],
    effectClasses: { read_file: 'READ' },
    ...(registry ? { capabilities: store } : {}),
  });
  harness = h;
  const source = new ConnectedPageSource({
    connect: async () => {
      const pair = await scriptedPair(() => ({ tools: backupTools, revision: 1 }), { serverVersion: '2.0.0-backup' });
      backups.push(pair);
      return { client: pair.client as Client, identity: () => 'fp:backup' };
    },
  });
  h.host.attachBackup(source, ACME, 'fp:a');
  return { h, store, backup: () => backups.at(-1) };
}

/** Discloses read_file to s1, then takes the primary down: its connection is cut and every reconnect fails. */
async function primaryDown(h: Harness): Promise<ReturnType<Harness['request']>> {
  h.grant(['read_file']);
  const request = h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } });
  h.world.down = true;
  await h.pair.close();
  return request;
}

describe('CatalogHost backups', () => {
  it('a backup listing the pinned descriptor carries the call; the capability receipt names it', async () => {
    const { h, store, backup } = await withBackup([READ]);
    const request = await primaryDown(h);
    const result = await h.host.call(request);
    expect(result).toMatchObject({ admitted: true, outcome: 'ok', leaseId: 'lease-0' });
    expect(backup()?.calls.map((call) => call.name)).toEqual(['read_file']);
    expect(h.pairs.map((pair) => pair.calls.length)).toEqual([0]);
    expect(h.of('gate_decision').map((event) => event.decision)).toEqual(['ADMIT']);
    expect(store.receipts().map((receipt) => receipt.endpoint)).toEqual([
      { server: 'fp:a', identity: 'fp:backup', build: '2.0.0-backup', backup: true },
    ]);
  });

  it('a backup listing another contract is never used: VERSION_INCOMPATIBLE, nothing sent, no receipt', async () => {
    const { h, store, backup } = await withBackup([READ_OTHER]);
    const request = await primaryDown(h);
    const result = await h.host.call(request);
    expect(result).toMatchObject({ admitted: false, code: 'VERSION_INCOMPATIBLE' });
    expect((result as { reason?: string }).reason).toMatch(/^no endpoint offered serves fp:a\.read_file v1 /);
    expect(backup()?.calls).toEqual([]);
    expect(h.of('gate_decision').map((event) => event.decision)).toEqual(['VERSION_INCOMPATIBLE']);
    expect(h.of('receipt')).toEqual([]);
    expect(store.receipts()).toEqual([]);
  });

  it('a backup listing no tool of that name is not offered: VERSION_INCOMPATIBLE', async () => {
    const { h, backup } = await withBackup([toolWith('write_file', { path: { type: 'string' } })]);
    const result = await h.host.call(await primaryDown(h));
    expect(result).toMatchObject({ admitted: false, code: 'VERSION_INCOMPATIBLE' });
    expect(backup()?.calls).toEqual([]);
  });

  it('with the primary up, the backup is neither listed nor used', async () => {
    const { h, store, backup } = await withBackup([READ]);
    h.grant(['read_file']);
    const result = await h.host.call(h.request(h.plan(h.disclose('s1'), 'read_file'), { arguments: { path: '/x' } }));
    expect(result).toMatchObject({ admitted: true, outcome: 'ok' });
    expect(backup()).toBeUndefined();
    expect(store.receipts().map((receipt) => receipt.endpoint)).toEqual([
      { server: 'fp:a', identity: 'fp:a', build: '1.0.0', backup: false },
    ]);
  });

  it('without a capability registry no backup is used: the gate refuses SERVER_DISABLED', async () => {
    const { h, backup } = await withBackup([READ], false);
    const result = await h.host.call(await primaryDown(h));
    expect(result).toMatchObject({ admitted: false, code: 'SERVER_DISABLED' });
    expect(backup()).toBeUndefined();
  });

  it('refuses a backup that cannot carry calls', async () => {
    const { h } = await withBackup([READ]);
    const listOnly = {
      listPage: async () => ({ ok: false, kind: 'error' }) as const,
      identity: () => 'x',
      changeCount: () => 0,
    };
    expect(() => h.host.attachBackup(listOnly, ACME, 'fp:a')).toThrow(
      new TypeError('a backup endpoint must carry calls: currentClient() and open()'),
    );
  });
});
