import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CapabilityRegistry } from './capability-registry.ts';
import { InMemoryCapabilityStore } from './capability-store.ts';
import { classifyDiff } from './diff.ts';
import { buildManifest, manifestDigestOf, type OperatorEntry, type ToolManifest } from './manifest.ts';

// Fixed seed: CI runs the same cases every time; change the seed to explore, then pin a failure.
const PARAMS = { seed: 20261207, numRuns: 300 };

/** A small property schema: a type, sometimes an enum, a bound or a description. */
const propertySchema = fc.record(
  {
    type: fc.constantFrom('string', 'number', 'integer', 'boolean', ['string', 'null']),
    enum: fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { minLength: 1 }),
    minimum: fc.integer({ min: 0, max: 3 }),
    description: fc.constantFrom('one', 'two'),
  },
  { requiredKeys: ['type'] },
);

/** A small object schema: up to four of five property names, some required, sometimes closed. */
const objectSchema = fc
  .record(
    {
      properties: fc.dictionary(fc.constantFrom('id', 'mode', 'count', 'note', 'tag'), propertySchema, { maxKeys: 4 }),
      closed: fc.boolean(),
      requiredPick: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    },
    { requiredKeys: ['properties', 'closed', 'requiredPick'] },
  )
  .map(({ properties, closed, requiredPick }) => {
    const names = Object.keys(properties).sort();
    const schema: Record<string, unknown> = {
      type: 'object',
      properties,
      required: names.filter((_, index) => requiredPick[index]),
    };
    if (closed) schema.additionalProperties = false;
    return schema;
  });

/** An operator entry varying the execution fields and the error codes. */
const entry: fc.Arbitrary<OperatorEntry> = fc.record(
  {
    sideEffect: fc.constantFrom('READ', 'WRITE', 'DESTRUCTIVE'),
    idempotency: fc.constantFrom('none', 'keyed', 'idempotent'),
    timeoutMs: fc.constantFrom(1_000, 5_000),
    requiredPermissions: fc.uniqueArray(fc.constantFrom('jobs:read', 'jobs:rerun'), { maxLength: 2 }),
    riskText: fc.constantFrom('May deploy.', 'Safe.'),
    errors: fc.uniqueArray(
      fc.record({
        code: fc.constantFrom('AMBIGUOUS', 'RATE_LIMITED'),
        meaning: fc.constantFrom('one', 'two'),
        retryable: fc.boolean(),
        recovery: fc.constantFrom([], ['ask_user']),
      }),
      { selector: (error) => error.code, maxLength: 2 },
    ),
  },
  { requiredKeys: [] },
);

/** What a manifest is built from, so a case can build it twice. */
interface Inputs {
  descriptor: Record<string, unknown>;
  entry: OperatorEntry;
}

const inputs: fc.Arbitrary<Inputs> = fc
  .record({
    input: objectSchema,
    output: fc.option(objectSchema, { nil: undefined }),
    description: fc.constantFrom('Reruns a job.', 'Reruns a CI job.'),
    entry,
  })
  .map(({ input, output, description, entry }) => ({
    descriptor: {
      name: 'rerun',
      description,
      inputSchema: input,
      ...(output === undefined ? {} : { outputSchema: output }),
    },
    entry,
  }));

/** One small edit of a tool's inputs, as an operator or a server would make it. */
type Edit = (of: Inputs) => void;

const inputOf = (of: Inputs) =>
  of.descriptor.inputSchema as { properties: Record<string, any>; required: string[] } & Record<string, unknown>;
const firstProperty = (of: Inputs): Record<string, unknown> | undefined => Object.values(inputOf(of).properties)[0];

/** The menu of edits the mutated pairs are drawn from. */
const EDITS: readonly Edit[] = [
  (of) => {
    inputOf(of).properties.extra = { type: 'string' };
  },
  (of) => {
    inputOf(of).properties.extra = { type: 'string' };
    inputOf(of).required.push('extra');
  },
  (of) => {
    const name = Object.keys(inputOf(of).properties)[0];
    if (name !== undefined) delete inputOf(of).properties[name];
  },
  (of) => {
    const name = Object.keys(inputOf(of).properties)[0];
    if (name !== undefined) inputOf(of).required = inputOf(of).required.includes(name) ? [] : [name];
  },
  (of) => {
    const property = firstProperty(of);
    if (property !== undefined) property.type = property.type === 'integer' ? 'number' : 'integer';
  },
  (of) => {
    const property = firstProperty(of);
    if (property !== undefined)
      property.enum = property.enum === undefined ? ['a'] : [...(property.enum as string[]), 'z'];
  },
  (of) => {
    const schema = inputOf(of);
    if (schema.additionalProperties === false) delete schema.additionalProperties;
    else schema.additionalProperties = false;
  },
  (of) => {
    of.descriptor.description = `${String(of.descriptor.description)} Prefer it.`;
  },
  (of) => {
    const output = of.descriptor.outputSchema as { properties: Record<string, unknown> } | undefined;
    if (output !== undefined) output.properties.extra = { type: 'string' };
  },
  (of) => {
    of.entry.timeoutMs = (of.entry.timeoutMs ?? 10_000) + 1_000;
  },
  (of) => {
    of.entry.idempotency = of.entry.idempotency === 'idempotent' ? 'none' : 'idempotent';
  },
  (of) => {
    of.entry.sideEffect = of.entry.sideEffect === 'READ' ? 'WRITE' : 'READ';
  },
  (of) => {
    of.entry.requiredPermissions = [...(of.entry.requiredPermissions ?? []), 'jobs:admin'];
  },
  (of) => {
    of.entry.errors = (of.entry.errors ?? []).some((error) => error.code === 'GONE')
      ? []
      : [...(of.entry.errors ?? []), { code: 'GONE', meaning: 'The job is gone.', retryable: false, recovery: [] }];
  },
  (of) => {
    of.entry.riskText = `${of.entry.riskText ?? ''}!`;
  },
];

/** A tool's inputs and the same inputs after one to three edits of {@link EDITS}. */
const editedPair: fc.Arbitrary<[Inputs, Inputs]> = fc
  .tuple(inputs, fc.array(fc.nat(EDITS.length - 1), { minLength: 1, maxLength: 3 }))
  .map(([a, picks]) => {
    const b = structuredClone(a);
    for (const pick of picks) (EDITS[pick] as Edit)(b);
    return [a, b];
  });

/** Independent pairs and edited pairs, half each. */
const pairs = fc.oneof(fc.tuple(inputs, inputs), editedPair);

const build = (of: Inputs): ToolManifest =>
  buildManifest(structuredClone(of.descriptor), 'jobs', structuredClone(of.entry));

describe('classifyDiff properties (fast-check, fixed seed)', () => {
  it('is a function of the pair: rebuilt copies give the same diff', () => {
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        expect(classifyDiff(build(a), build(b))).toEqual(classifyDiff(build(a), build(b)));
      }),
      PARAMS,
    );
  });

  it('identical exactly when the digests are equal (equal schemas never make a new version)', () => {
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const [before, after] = [build(a), build(b)];
        const diff = classifyDiff(before, after);
        const same = manifestDigestOf(before) === manifestDigestOf(after);
        expect(diff.class === 'identical').toBe(same);
        expect(diff.changes.length === 0).toBe(same);
        expect(classifyDiff(before, build(a))).toEqual({ class: 'identical', changes: [] });
      }),
      PARAMS,
    );
  });

  it('in the registry, an equal manifest never makes a new version; a different one makes exactly one, classified as classifyDiff says', () => {
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const registry = new CapabilityRegistry({ clock: { now: () => 0 }, store: new InMemoryCapabilityStore() });
        const [before, after] = [build(a), build(b)];
        registry.register(before);
        const second = registry.register(after);
        const same = manifestDigestOf(before) === manifestDigestOf(after);
        expect([second.created, second.version.version]).toEqual(same ? [false, 1] : [true, 2]);
        expect(registry.register(build(a))).toMatchObject({ created: false, version: { version: 1 } });
        expect(registry.register(build(b)).created).toBe(false);
        if (!same) expect(second.version.diffFromPrevious).toEqual(classifyDiff(before, after));
      }),
      PARAMS,
    );
  });

  it('two different manifests are never compatible both ways', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const [before, after] = [build(a), build(b)];
        fc.pre(manifestDigestOf(before) !== manifestDigestOf(after));
        const there = classifyDiff(before, after).class;
        const back = classifyDiff(after, before).class;
        expect(there === 'compatible' && back === 'compatible').toBe(false);
        seen.add(`${there}/${back}`);
      }),
      PARAMS,
    );
    // The cases reached every one-way combination (the property is not vacuous on these seeds).
    expect([...seen].sort()).toEqual([
      'behavioural/behavioural',
      'behavioural/breaking',
      'breaking/behavioural',
      'breaking/breaking',
      'breaking/compatible',
      'compatible/breaking',
    ]);
  });

  it('adding a required input is breaking, and removing it again is breaking too (never compatible both ways)', () => {
    fc.assert(
      fc.property(inputs, (a) => {
        const added = structuredClone(a);
        const schema = added.descriptor.inputSchema as { properties: Record<string, unknown>; required: string[] };
        schema.properties.reason = { type: 'string' };
        schema.required = [...schema.required, 'reason'];
        const [before, after] = [build(a), build(added)];
        expect(classifyDiff(before, after).class).toBe('breaking');
        expect(classifyDiff(after, before).class).toBe('breaking');
      }),
      PARAMS,
    );
  });

  it('adding an optional output field is compatible; removing it again is breaking', () => {
    fc.assert(
      fc.property(inputs, (a) => {
        const added = structuredClone(a);
        const output = (added.descriptor.outputSchema ?? { type: 'object', properties: {} }) as {
          properties: Record<string, unknown>;
        };
        fc.pre(added.descriptor.outputSchema !== undefined);
        output.properties.extra = { type: 'string' };
        const [before, after] = [build(a), build(added)];
        expect(classifyDiff(before, after)).toEqual({
          class: 'compatible',
          changes: [{ path: 'outputSchema.properties.extra', rule: 'PROPERTY_ADDED_OPTIONAL', class: 'compatible' }],
        });
        expect(classifyDiff(after, before).class).toBe('breaking');
      }),
      PARAMS,
    );
  });

  it('the class is the most severe change of the list', () => {
    const order = ['compatible', 'behavioural', 'breaking'];
    fc.assert(
      fc.property(pairs, ([a, b]) => {
        const diff = classifyDiff(build(a), build(b));
        fc.pre(diff.class !== 'identical');
        const worst = Math.max(...diff.changes.map((change) => order.indexOf(change.class)));
        expect(diff.class).toBe(order[worst]);
      }),
      PARAMS,
    );
  });
});
