/**
 * Properties over generated clean rounds (fast-check, fixed seeds so runs are reproducible): a
 * correct core's trace passes every invariant, and one planted fault yields exactly its code.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEvents, checkTrace } from './check.ts';
import { ID0, TraceBuilder } from './testing/trace-builder.ts';
import { parseTrace, type TraceEvent } from './trace.ts';

/** One audience's final view, already split into pages (an empty view is one empty page). */
interface AudienceCatalog {
  readonly audience: string;
  readonly pages: readonly (readonly string[])[];
}

const catalogArb: fc.Arbitrary<CatalogInput> = fc.record({
  revision: fc.nat({ max: 50 }),
  audiences: fc.uniqueArray(
    fc.record({
      audience: fc.constantFrom('acme.dev', 'acme.ops', 'beta.dev', 'beta.admin'),
      tools: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 7 }),
      pageSize: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: 4, selector: (entry) => entry.audience },
  ),
});

/** What `catalogArb` generates. */
interface CatalogInput {
  readonly revision: number;
  readonly audiences: ReadonlyArray<{
    readonly audience: string;
    readonly tools: readonly string[];
    readonly pageSize: number;
  }>;
}

function paginate(tools: readonly string[], pageSize: number): string[][] {
  if (tools.length === 0) return [[]];
  const pages: string[][] = [];
  for (let i = 0; i < tools.length; i += pageSize) pages.push(tools.slice(i, i + pageSize));
  return pages;
}

function catalogsOf(input: CatalogInput): AudienceCatalog[] {
  return input.audiences.map(({ audience, tools, pageSize }) => ({ audience, pages: paginate(tools, pageSize) }));
}

/** A correct round over the generated catalog; `skipRecheckOf` drops one audience's recheck. */
function buildRound(
  input: CatalogInput,
  skipRecheckOf: string | null = null,
): { builder: TraceBuilder; publishSeqs: Map<string, number> } {
  const builder = new TraceBuilder();
  const catalogs = catalogsOf(input);
  builder.serverUp('s0', ID0);
  builder.revision('s0', input.revision, Object.fromEntries(catalogs.map((c) => [c.audience, c.pages.flat()])));
  for (const { audience } of catalogs) builder.sessionOpened('s0', audience, ID0);
  const publishSeqs = new Map<string, number>();
  for (const { audience, pages } of catalogs) {
    const recheck = audience === skipRecheckOf ? false : undefined;
    const { publishSeq } = builder.walk({
      audience,
      scanId: `sc-${audience}`,
      revision: input.revision,
      pages,
      recheck,
    });
    publishSeqs.set(audience, publishSeq ?? -1);
  }
  builder.quiet();
  builder.roundEnd('settled');
  return { builder, publishSeqs };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('generated rounds', () => {
  it('a correct core passes every invariant, and the trace survives a text round trip', () => {
    fc.assert(
      fc.property(catalogArb, (input) => {
        const { builder } = buildRound(input);
        const verdict = checkTrace(builder.build());
        expect(verdict.violations).toEqual([]);
        expect(verdict.checked.I1).toBe(input.audiences.length);
        expect(verdict.checked.I12).toBe(input.audiences.length);
        expect(parseTrace(builder.jsonl())).toEqual(builder.build());
      }),
      { seed: 20_251_130, numRuns: 200 },
    );
  });

  it('skipping one final recheck yields exactly one NO_FINAL_RECHECK at that publish', () => {
    const arb = catalogArb.chain((input) =>
      fc.record({ input: fc.constant(input), victim: fc.constantFrom(...input.audiences.map((a) => a.audience)) }),
    );
    fc.assert(
      fc.property(arb, ({ input, victim }) => {
        const { builder, publishSeqs } = buildRound(input, victim);
        const violations = checkTrace(builder.build()).violations;
        expect(violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
          ['I1', 'NO_FINAL_RECHECK', publishSeqs.get(victim)],
        ]);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it('is deterministic and never mutates its input', () => {
    fc.assert(
      fc.property(catalogArb, (input) => {
        const trace = deepFreeze(buildRound(input, input.audiences[0]?.audience ?? null).builder.build());
        const events: readonly TraceEvent[] = trace.events;
        expect(checkEvents(trace.header, events)).toEqual(checkTrace(trace));
      }),
      { seed: 99, numRuns: 100 },
    );
  });
});
