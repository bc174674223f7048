import { describe, expect, it } from 'vitest';
import { generationOf } from '../surface/testing/generation.ts';
import { buildManifest } from './manifest.ts';
import { parseManifestFile } from './manifest-file.ts';
import { manifestsOfSnapshot } from './snapshot-manifests.ts';

const RERUN = { name: 'rerun', inputSchema: { type: 'object', properties: { jobId: { type: 'string' } } } };
const STATUS = { name: 'status', inputSchema: { type: 'object' } };
/** A tool whose inputSchema root is not an object schema: quarantined by the content checks. */
const BROKEN = { name: 'broken', inputSchema: { type: 'string' } };

const FILE = parseManifestFile(
  JSON.stringify({
    schema: 'catsim.manifests.v1',
    server: 'jobs',
    tools: { rerun: { toolId: 'jobs.rerun', sideEffect: 'WRITE' }, deploy: {}, cancel: {} },
  }),
  'jobs.json',
);

describe('manifestsOfSnapshot', () => {
  it('builds one manifest per tool that passed its checks, with its entry or the safest defaults', () => {
    const { snapshot } = generationOf([RERUN, STATUS, BROKEN]);
    const found = manifestsOfSnapshot(snapshot, 'jobs', FILE);
    expect(found.manifests).toEqual([
      buildManifest(RERUN, 'jobs', { toolId: 'jobs.rerun', sideEffect: 'WRITE' }),
      buildManifest(STATUS, 'jobs'),
    ]);
    expect(found.manifests[1]?.sideEffect).toBe('DESTRUCTIVE');
    expect(found.withoutManifest).toEqual([{ name: 'broken', verdict: 'NON_OBJECT_ROOT' }]);
    expect(found.unmatchedEntries).toEqual(['cancel', 'deploy']);
  });

  it('refuses the manifest file of another server', () => {
    const { snapshot } = generationOf([RERUN]);
    expect(() => manifestsOfSnapshot(snapshot, 'ci', FILE)).toThrow(
      new TypeError('the manifest file describes server jobs, not ci'),
    );
    expect(manifestsOfSnapshot(snapshot, 'ci').manifests[0]?.toolId).toBe('ci.rerun');
  });
});
