import { describe, expect, it } from 'vitest';
import { InMemoryCapabilityStore, type ToolVersion } from './capability-store.ts';
import { buildManifest, manifestDigestOf } from './manifest.ts';

const manifest = buildManifest({ name: 'rerun', inputSchema: { type: 'object' } }, 'jobs');
const V1: ToolVersion = {
  toolId: 'jobs.rerun',
  version: 1,
  manifestDigest: manifestDigestOf(manifest),
  manifest,
  registeredAt: 5,
  previousVersion: null,
  diffFromPrevious: null,
};

describe('InMemoryCapabilityStore', () => {
  it('writes a batch whole or not at all: a version written twice refuses the batch, alias included', () => {
    const store = new InMemoryCapabilityStore();
    store.commit([{ kind: 'version', record: V1 }]);
    const alias = { alias: 'prod:jobs.rerun', toolId: 'jobs.rerun', history: [] };
    expect(() =>
      store.commit([
        { kind: 'alias', record: alias },
        { kind: 'version', record: V1 },
      ]),
    ).toThrow('version jobs.rerun@1 is already stored (versions are immutable)');
    expect(store.alias('prod:jobs.rerun')).toBeUndefined();
    expect(store.versions('jobs.rerun')).toHaveLength(1);
  });

  it('refuses a receipt or audit record out of order', () => {
    const store = new InMemoryCapabilityStore();
    expect(() =>
      store.commit([{ kind: 'audit', record: { seq: 1, at: 0, action: 'register', subject: 'a', detail: '' } }]),
    ).not.toThrow();
    expect(() =>
      store.commit([{ kind: 'audit', record: { seq: 1, at: 0, action: 'register', subject: 'b', detail: '' } }]),
    ).toThrow('audit record 1 is not after 1');
    expect(store.audit().map((record) => record.subject)).toEqual(['a']);
  });

  it('keeps copies: what a caller changes after a commit or a read is not stored', () => {
    const store = new InMemoryCapabilityStore();
    const alias = {
      alias: 'prod:x',
      toolId: 'x',
      history: [{ version: 1, at: 0, reason: 'r', migration: null, rollback: false }],
    };
    store.commit([{ kind: 'alias', record: alias }]);
    alias.history.push({ version: 2, at: 1, reason: 'r', migration: null, rollback: false });
    (store.alias('prod:x')?.history ?? []).pop();
    expect(store.alias('prod:x')?.history.map((target) => target.version)).toEqual([1]);
  });
});
