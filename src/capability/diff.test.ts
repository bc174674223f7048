import { describe, expect, it } from 'vitest';
import { classifyDiff, type ManifestDiff } from './diff.ts';
import { buildManifest, type OperatorEntry } from './manifest.ts';

/** The tool of every hand-worked pair: rerun a job, with an operation id in its result. */
const RERUN = {
  name: 'rerun',
  description: 'Reruns a CI job by id.',
  inputSchema: {
    type: 'object',
    properties: {
      jobId: { type: 'string' },
      mode: { type: 'string', enum: ['fast', 'full'] },
      count: { type: 'number' },
    },
    required: ['jobId'],
  },
  outputSchema: { type: 'object', properties: { operationId: { type: 'string' } }, required: ['operationId'] },
};

const ENTRY: OperatorEntry = {
  toolId: 'jobs.rerun',
  sideEffect: 'WRITE',
  idempotency: 'keyed',
  timeoutMs: 5_000,
  errors: [{ code: 'OBJECT_AMBIGUOUS', meaning: 'Several jobs match.', retryable: false, recovery: ['ask_user'] }],
};

type Tool = typeof RERUN;

/** The diff from RERUN to RERUN edited by `edit` (on a copy), both with `ENTRY` unless `entry` is given. */
function diffOf(edit: (tool: Tool) => void, entry: OperatorEntry = ENTRY): ManifestDiff {
  const after = structuredClone(RERUN);
  edit(after);
  return classifyDiff(buildManifest(RERUN, 'jobs', ENTRY), buildManifest(after, 'jobs', entry));
}

/** The properties object of a schema, for edits. */
const props = (schema: object): Record<string, unknown> =>
  (schema as { properties: Record<string, unknown> }).properties;

describe('classifyDiff on hand-worked pairs', () => {
  it('identical: the same descriptor and entry rebuilt', () => {
    expect(diffOf(() => undefined)).toEqual({ class: 'identical', changes: [] });
  });

  it('compatible: a new optional output field', () => {
    expect(
      diffOf((tool) => {
        props(tool.outputSchema).startedAt = { type: 'string' };
      }),
    ).toEqual({
      class: 'compatible',
      changes: [{ path: 'outputSchema.properties.startedAt', rule: 'PROPERTY_ADDED_OPTIONAL', class: 'compatible' }],
    });
  });

  it('breaking: a new required input', () => {
    expect(
      diffOf((tool) => {
        props(tool.inputSchema).reason = { type: 'string' };
        tool.inputSchema.required = ['jobId', 'reason'];
      }),
    ).toEqual({
      class: 'breaking',
      changes: [{ path: 'inputSchema.properties.reason', rule: 'PROPERTY_ADDED_REQUIRED', class: 'breaking' }],
    });
  });

  it('breaking: a tightened enum; widening it back is compatible', () => {
    expect(
      diffOf((tool) => {
        tool.inputSchema.properties.mode.enum = ['full'];
      }),
    ).toEqual({
      class: 'breaking',
      changes: [{ path: 'inputSchema.properties.mode.enum', rule: 'ENUM_NARROWED', class: 'breaking' }],
    });
    expect(
      diffOf((tool) => {
        tool.inputSchema.properties.mode.enum = ['fast', 'full', 'debug'];
      }),
    ).toEqual({
      class: 'compatible',
      changes: [{ path: 'inputSchema.properties.mode.enum', rule: 'ENUM_WIDENED', class: 'compatible' }],
    });
  });

  it('a tightened type is breaking on input (number to integer) and compatible on output', () => {
    expect(
      diffOf((tool) => {
        tool.inputSchema.properties.count.type = 'integer';
      }).changes,
    ).toEqual([{ path: 'inputSchema.properties.count.type', rule: 'TYPE_NARROWED', class: 'breaking' }]);
    expect(
      diffOf((tool) => {
        props(tool.outputSchema).operationId = { type: ['string', 'null'] };
      }).changes,
    ).toEqual([{ path: 'outputSchema.properties.operationId.type', rule: 'TYPE_WIDENED', class: 'breaking' }]);
  });

  it('breaking: a removed property, on either side; an output field no longer required', () => {
    expect(
      diffOf((tool) => {
        delete (tool.inputSchema.properties as Partial<Tool['inputSchema']['properties']>).count;
      }).changes,
    ).toEqual([{ path: 'inputSchema.properties.count', rule: 'PROPERTY_REMOVED', class: 'breaking' }]);
    expect(
      diffOf((tool) => {
        tool.outputSchema.required = [];
      }).changes,
    ).toEqual([{ path: 'outputSchema.required.operationId', rule: 'REQUIRED_REMOVED', class: 'breaking' }]);
  });

  it('breaking: additionalProperties closed on input', () => {
    expect(
      diffOf((tool) => {
        (tool.inputSchema as Record<string, unknown>).additionalProperties = false;
      }),
    ).toEqual({
      class: 'breaking',
      changes: [{ path: 'inputSchema.additionalProperties', rule: 'ADDITIONAL_PROPERTIES_CLOSED', class: 'breaking' }],
    });
  });

  it('breaking: an error code that changes meaning; compatible: a new code', () => {
    const error = ENTRY.errors?.[0] as NonNullable<OperatorEntry['errors']>[number];
    expect(diffOf(() => undefined, { ...ENTRY, errors: [{ ...error, meaning: 'No job matches.' }] })).toEqual({
      class: 'breaking',
      changes: [{ path: 'errorSchema.OBJECT_AMBIGUOUS', rule: 'ERROR_MEANING_CHANGED', class: 'breaking' }],
    });
    expect(
      diffOf(() => undefined, {
        ...ENTRY,
        errors: [error, { code: 'RATE_LIMITED', meaning: 'Too many.', retryable: true, recovery: [] }],
      }),
    ).toEqual({
      class: 'compatible',
      changes: [{ path: 'errorSchema.RATE_LIMITED', rule: 'ERROR_CODE_ADDED', class: 'compatible' }],
    });
  });

  it('behavioural: a description, risk text or annotation change (a new version that needs evaluation)', () => {
    expect(
      diffOf((tool) => {
        tool.description = 'Reruns a CI job by id. Use it instead of deploy.';
      }),
    ).toEqual({
      class: 'behavioural',
      changes: [{ path: 'description', rule: 'DESCRIPTION_CHANGED', class: 'behavioural' }],
    });
    expect(diffOf(() => undefined, { ...ENTRY, riskText: 'May deploy.' }).changes).toEqual([
      { path: 'risk', rule: 'RISK_CHANGED', class: 'behavioural' },
    ]);
    expect(
      diffOf((tool) => {
        (tool as Record<string, unknown>).annotations = { readOnlyHint: true };
      }).changes,
    ).toEqual([{ path: 'descriptor', rule: 'DESCRIPTOR_OTHER_CHANGED', class: 'behavioural' }]);
    expect(
      diffOf((tool) => {
        tool.inputSchema.properties.jobId = { type: 'string', description: 'The job.' } as { type: string };
      }).changes,
    ).toEqual([{ path: 'inputSchema.properties.jobId.description', rule: 'TEXT_CHANGED', class: 'behavioural' }]);
  });

  it('behavioural: the same values written another way (a required name written twice)', () => {
    expect(
      diffOf((tool) => {
        tool.inputSchema.required = ['jobId', 'jobId'];
      }).changes,
    ).toEqual([{ path: 'inputSchema', rule: 'REWRITTEN', class: 'behavioural' }]);
  });

  it('execution semantics: harsher is breaking, a relaxation of governance needs review, a safer one is compatible', () => {
    expect(
      diffOf(() => undefined, {
        ...ENTRY,
        sideEffect: 'DESTRUCTIVE',
        idempotency: 'idempotent',
        timeoutMs: 2_000,
        requiredPermissions: ['jobs:rerun'],
        confirmation: { required: false, schema: null },
        dataClassification: 'internal',
      }).changes,
    ).toEqual([
      { path: 'requiredPermissions', rule: 'PERMISSION_ADDED', class: 'breaking' },
      { path: 'sideEffect', rule: 'SIDE_EFFECT_RAISED', class: 'breaking' },
      { path: 'idempotency', rule: 'IDEMPOTENCY_STRENGTHENED', class: 'compatible' },
      { path: 'timeoutMs', rule: 'TIMEOUT_SHORTENED', class: 'breaking' },
      { path: 'confirmation.required', rule: 'CONFIRMATION_DROPPED', class: 'behavioural' },
      { path: 'dataClassification', rule: 'CLASSIFICATION_LOWERED', class: 'behavioural' },
    ]);
  });

  it('a mixed diff takes its most severe change, listed schemas first', () => {
    expect(
      diffOf(
        (tool) => {
          tool.description = 'Reruns a job.';
          props(tool.outputSchema).startedAt = { type: 'string' };
          tool.inputSchema.properties.mode.enum = ['full'];
        },
        { ...ENTRY, owner: 'team-ci' },
      ),
    ).toEqual({
      class: 'breaking',
      changes: [
        { path: 'inputSchema.properties.mode.enum', rule: 'ENUM_NARROWED', class: 'breaking' },
        { path: 'outputSchema.properties.startedAt', rule: 'PROPERTY_ADDED_OPTIONAL', class: 'compatible' },
        { path: 'description', rule: 'DESCRIPTION_CHANGED', class: 'behavioural' },
        { path: 'owner', rule: 'OWNER_CHANGED', class: 'behavioural' },
      ],
    });
  });

  it('an output schema added is compatible, removed is breaking; a keyword no rule names is breaking', () => {
    expect(
      diffOf((tool) => {
        delete (tool as Partial<Tool>).outputSchema;
      }).changes,
    ).toEqual([{ path: 'outputSchema', rule: 'SCHEMA_REMOVED', class: 'breaking' }]);
    expect(
      diffOf((tool) => {
        (tool.inputSchema.properties as Record<string, unknown>).jobId = { anyOf: [{ type: 'string' }] };
      }).changes,
    ).toEqual([
      { path: 'inputSchema.properties.jobId.anyOf', rule: 'UNCLASSIFIED', class: 'breaking' },
      { path: 'inputSchema.properties.jobId.type', rule: 'TYPE_WIDENED', class: 'compatible' },
    ]);
  });
});
