import { describe, expect, it } from 'vitest';
import { domainDigest } from '../snapshot/canonical.ts';
import { descriptorDigest, schemaDigest } from '../snapshot/digests.ts';
import {
  buildManifest,
  executorViewOf,
  manifestDigestOf,
  modelViewOf,
  type OperatorEntry,
  type ToolManifest,
} from './manifest.ts';
import { ManifestFileError, operatorEntryOf, parseManifestFile } from './manifest-file.ts';

const RERUN = {
  name: 'rerun',
  title: 'Rerun a job',
  description: 'Reruns a CI job by id.',
  inputSchema: { type: 'object', properties: { jobId: { type: 'string' } }, required: ['jobId'] },
  outputSchema: { type: 'object', properties: { operationId: { type: 'string' } }, required: ['operationId'] },
  annotations: { readOnlyHint: true },
};

const ENTRY: OperatorEntry = {
  toolId: 'jobs.rerun',
  owner: 'team-ci',
  riskLevel: 'high',
  riskText: 'May deploy again.',
  requiredPermissions: ['jobs:rerun', 'jobs:read', 'jobs:rerun'],
  sideEffect: 'WRITE',
  idempotency: 'keyed',
  timeoutMs: 5_000,
  retry: { maxAttempts: 3, backoffMs: 200 },
  confirmation: { required: false, schema: null },
  dataClassification: 'internal',
  errors: [
    { code: 'RATE_LIMITED', meaning: 'Too many reruns.', retryable: true, recovery: ['wait'] },
    { code: 'OBJECT_AMBIGUOUS', meaning: 'Several jobs match.', retryable: false, recovery: ['ask_user'] },
  ],
};

describe('buildManifest', () => {
  it('takes what MCP carries from the descriptor and the rest from the operator entry', () => {
    const manifest = buildManifest(RERUN, 'jobs', ENTRY);
    expect(manifest).toEqual({
      schema: 'catsim.toolManifest.v1',
      toolId: 'jobs.rerun',
      descriptorDigest: descriptorDigest(RERUN),
      title: 'Rerun a job',
      description: 'Reruns a CI job by id.',
      inputSchema: RERUN.inputSchema,
      inputSchemaHash: schemaDigest(RERUN.inputSchema) as string,
      outputSchema: RERUN.outputSchema,
      outputSchemaHash: schemaDigest(RERUN.outputSchema) as string,
      errorSchema: {
        codes: [
          { code: 'OBJECT_AMBIGUOUS', meaning: 'Several jobs match.', retryable: false, recovery: ['ask_user'] },
          { code: 'RATE_LIMITED', meaning: 'Too many reruns.', retryable: true, recovery: ['wait'] },
        ],
      },
      errorSchemaHash: domainDigest('catsim.errorSchema.v1', {
        codes: [
          { code: 'OBJECT_AMBIGUOUS', meaning: 'Several jobs match.', retryable: false, recovery: ['ask_user'] },
          { code: 'RATE_LIMITED', meaning: 'Too many reruns.', retryable: true, recovery: ['wait'] },
        ],
      }),
      owner: 'team-ci',
      riskLevel: 'high',
      riskText: 'May deploy again.',
      requiredPermissions: ['jobs:read', 'jobs:rerun'],
      sideEffect: 'WRITE',
      idempotency: 'keyed',
      timeoutMs: 5_000,
      retry: { maxAttempts: 3, backoffMs: 200 },
      confirmation: { required: false, schema: null },
      dataClassification: 'internal',
      endpoint: { server: 'jobs', toolName: 'rerun' },
    } satisfies ToolManifest);
    // The input schema hash is the one a snapshot holds for the same tool (SPEC section 4).
    expect(manifest.inputSchemaHash).toBe(schemaDigest(RERUN.inputSchema));
  });

  it('gives a tool without an entry the safest defaults, never the permissive ones (the readOnlyHint is ignored)', () => {
    const manifest = buildManifest(RERUN, 'jobs');
    expect({
      toolId: manifest.toolId,
      owner: manifest.owner,
      riskLevel: manifest.riskLevel,
      riskText: manifest.riskText,
      requiredPermissions: manifest.requiredPermissions,
      sideEffect: manifest.sideEffect,
      idempotency: manifest.idempotency,
      timeoutMs: manifest.timeoutMs,
      retry: manifest.retry,
      confirmation: manifest.confirmation,
      dataClassification: manifest.dataClassification,
      errorSchema: manifest.errorSchema,
    }).toEqual({
      toolId: 'jobs.rerun',
      owner: null,
      riskLevel: 'critical',
      riskText: null,
      requiredPermissions: ['invoke:jobs.rerun'],
      sideEffect: 'DESTRUCTIVE',
      idempotency: 'none',
      timeoutMs: 10_000,
      retry: { maxAttempts: 1, backoffMs: 0 },
      confirmation: { required: true, schema: null },
      dataClassification: 'restricted',
      errorSchema: { codes: [] },
    });
  });

  it('is frozen and keeps copies: changing the caller’s descriptor or entry changes nothing', () => {
    const descriptor = structuredClone(RERUN);
    const entry = structuredClone(ENTRY);
    const manifest = buildManifest(descriptor, 'jobs', entry);
    const digest = manifestDigestOf(manifest);
    descriptor.inputSchema.properties.jobId.type = 'number';
    (entry.retry as { maxAttempts: number }).maxAttempts = 9;
    expect(manifestDigestOf(manifest)).toBe(digest);
    expect(Object.isFrozen(manifest.inputSchema)).toBe(true);
    expect(() => {
      (manifest as { owner: string | null }).owner = 'x';
    }).toThrow(TypeError);
  });

  it('a description-only change is another manifest digest (seed 004: a new version even when the API is the same)', () => {
    const a = buildManifest(RERUN, 'jobs', ENTRY);
    const b = buildManifest(
      { ...RERUN, description: 'Reruns a CI job by id. Prefer this over deploy.' },
      'jobs',
      ENTRY,
    );
    expect(manifestDigestOf(a)).not.toBe(manifestDigestOf(b));
    expect(manifestDigestOf(a)).toBe(manifestDigestOf(buildManifest(structuredClone(RERUN), 'jobs', ENTRY)));
  });

  it('refuses a descriptor without a name or an object inputSchema', () => {
    expect(() => buildManifest({ inputSchema: {} }, 'jobs')).toThrow(
      'a manifest needs a descriptor with a non-empty string name',
    );
    expect(() => buildManifest({ name: 'x', inputSchema: [] }, 'jobs')).toThrow(
      'tool x: a manifest needs an object inputSchema',
    );
  });

  it('the model view and the executor view share one id and version; the model view holds no policy details', () => {
    const manifest = buildManifest(RERUN, 'jobs', ENTRY);
    const model = modelViewOf(manifest, 3);
    const executor = executorViewOf(manifest, 3);
    expect(model).toEqual({
      toolId: 'jobs.rerun',
      version: 3,
      name: 'rerun',
      title: 'Rerun a job',
      description: 'Reruns a CI job by id.',
      inputSchema: RERUN.inputSchema,
    });
    expect([executor.toolId, executor.version, executor.manifestDigest]).toEqual([
      'jobs.rerun',
      3,
      manifestDigestOf(manifest),
    ]);
    expect(Object.keys(model)).not.toContain('requiredPermissions');
  });
});

/** {@link ENTRY} as a file holds it (a file may not repeat a permission). */
const FILE_ENTRY: OperatorEntry = { ...ENTRY, requiredPermissions: ['jobs:rerun', 'jobs:read'] };

const FILE = {
  schema: 'catsim.manifests.v1',
  server: 'jobs',
  tools: { rerun: FILE_ENTRY, status: { sideEffect: 'READ', retry: { maxAttempts: 2, backoffMs: 50 } } },
};

/** The one-line message parseManifestFile throws for `file` (a value written out as JSON). */
function problem(file: unknown): string {
  try {
    parseManifestFile(typeof file === 'string' ? file : JSON.stringify(file), 'jobs.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestFileError);
    return (error as Error).message;
  }
  return 'no error';
}

describe('parseManifestFile', () => {
  it('reads a valid file; a tool it does not name has no entry', () => {
    const file = parseManifestFile(JSON.stringify(FILE), 'jobs.json');
    expect(operatorEntryOf(file, 'rerun')).toEqual(FILE_ENTRY);
    expect(operatorEntryOf(file, 'status')).toEqual({ sideEffect: 'READ', retry: { maxAttempts: 2, backoffMs: 50 } });
    expect(operatorEntryOf(file, 'toString')).toBeUndefined();
  });

  it('refuses each kind of bad file with one line naming the file and the field', () => {
    const rerun = (patch: Record<string, unknown>) => ({ ...FILE, tools: { rerun: { ...FILE_ENTRY, ...patch } } });
    expect(problem('{')).toMatch(/^manifest file jobs\.json: not JSON: /);
    expect(problem({ ...FILE, schema: 'catsim.manifests.v2' })).toBe(
      'manifest file jobs.json: schema must be "catsim.manifests.v1", got "catsim.manifests.v2"',
    );
    expect(problem({ schema: 'catsim.manifests.v1', tools: {} })).toBe('manifest file jobs.json: missing field server');
    expect(problem(rerun({ riskLevel: 'severe' }))).toBe(
      'manifest file jobs.json: tools.rerun.riskLevel must be one of low, medium, high, critical, got "severe"',
    );
    expect(problem(rerun({ readOnly: true }))).toBe('manifest file jobs.json: unknown field tools.rerun.readOnly');
    expect(problem(rerun({ requiredPermissions: ['a', 'a'] }))).toBe(
      'manifest file jobs.json: tools.rerun.requiredPermissions must NOT have duplicate items (items ## 1 and 0 are identical), got ["a","a"]',
    );
    expect(problem(rerun({ timeoutMs: 0 }))).toBe('manifest file jobs.json: tools.rerun.timeoutMs must be >= 1, got 0');
    expect(problem(rerun({ retry: { maxAttempts: 2 } }))).toBe(
      'manifest file jobs.json: missing field tools.rerun.retry.backoffMs',
    );
    expect(problem(rerun({ idempotency: 'none' }))).toBe(
      'manifest file jobs.json: tools.rerun.retry.maxAttempts is above 1, but the tool is not READ and its idempotency is none (a retry could act twice)',
    );
    expect(problem({ ...FILE, tools: { rerun: { retry: { maxAttempts: 2, backoffMs: 0 } } } })).toBe(
      'manifest file jobs.json: tools.rerun.retry.maxAttempts is above 1, but the tool is not READ and its idempotency is none (a retry could act twice)',
    );
    expect(problem(rerun({ errors: [...(ENTRY.errors ?? []), ENTRY.errors?.[0]] }))).toBe(
      'manifest file jobs.json: tools.rerun.errors repeats the code RATE_LIMITED',
    );
    expect(problem({ ...FILE, tools: { a: { toolId: 'jobs.x' }, x: {} } })).toBe(
      'manifest file jobs.json: tools a and x have the same toolId jobs.x',
    );
  });

  // Found trying the format as a user: V8's message quoted the text (newlines and all) and was cut
  // at its first line; a tool named with a newline made a two-line message; `a.b` and `a/b` read as
  // paths (`tools.a.b`, `tools.a~1b`); a long value was quoted whole; a byte order mark was "not JSON".
  it('keeps every message one unambiguous line, whatever the text and the tool names', () => {
    expect(problem('nonsense\n{')).toBe("manifest file jobs.json: not JSON: Unexpected token 'o'");
    expect(problem('{"schema": "catsim.manifests.v1",\n "server": "jobs",\n "tools": {},\n}')).toBe(
      'manifest file jobs.json: not JSON: Expected double-quoted property name at line 4, column 1',
    );
    const named = (name: string) => ({ ...FILE, tools: { [name]: { riskLevel: 'severe' } } });
    expect(problem(named('a\nb'))).toBe(
      'manifest file jobs.json: tools["a\\nb"].riskLevel must be one of low, medium, high, critical, got "severe"',
    );
    expect(problem(named('a.b'))).toBe(
      'manifest file jobs.json: tools["a.b"].riskLevel must be one of low, medium, high, critical, got "severe"',
    );
    expect(problem(named('a/b'))).toBe(
      'manifest file jobs.json: tools["a/b"].riskLevel must be one of low, medium, high, critical, got "severe"',
    );
    expect(problem({ ...FILE, tools: { 'x\ny': { riskLevl: 'high' } } })).toBe(
      'manifest file jobs.json: unknown field tools["x\\ny"].riskLevl',
    );
    expect(problem({ ...FILE, tools: 'x'.repeat(5000) })).toBe(
      `manifest file jobs.json: tools must be object, got "${'x'.repeat(79)}…`,
    );
    expect(problem({ ...FILE, tools: { a: { toolId: 'same\nid' }, b: { toolId: 'same\nid' } } })).toBe(
      'manifest file jobs.json: tools a and b have the same toolId "same\\nid"',
    );
    expect(parseManifestFile(`\ufeff${JSON.stringify({ ...FILE, tools: {} })}`, 'jobs.json')).toEqual({
      ...FILE,
      tools: {},
    });
  });
});
