import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { ID0, TraceBuilder, toolDigest, toolNameOf } from '../testing/trace-builder.ts';
import type { TraceBounds } from '../trace.ts';

const KEY = `${ID0}|acme.dev`;

/** A walk of `tools` published, shown to a planner and used for one ADMIT, under `bounds`. */
function publishShowAndAdmit(
  tools: readonly string[],
  bounds: Partial<TraceBounds>,
  sizes?: Readonly<Record<string, number>>,
): TraceBuilder {
  const b = new TraceBuilder({ bounds });
  b.serverUp('s0', ID0, { traits: ['F23:tools'] });
  if (sizes === undefined) b.revision('s0', 7, { 'acme.dev': tools });
  else
    b.emit('world', 'revision', {
      server: 's0',
      revision: 7,
      views: {
        'acme.dev': tools.map((label) => ({ name: toolNameOf(label), digest: toolDigest(label), bytes: sizes[label] })),
      },
    });
  const { publishSeq } = b.walk({ audience: 'acme.dev', scanId: 'scan-0', revision: 7, pages: [tools] });
  b.disclosure(publishSeq as number, { session: 'p0' });
  b.gateDecision({ session: 'p0', planId: 'plan-0', key: KEY, tool: tools[0] as string });
  return b;
}

describe('I27: whole-catalog limits', () => {
  it('a catalog of 3 tools under toolCountMax 2 is reported where it was published, shown and admitted from', () => {
    const b = publishShowAndAdmit(['echo', 'read', 'write'], { toolCountMax: 2 });
    const verdict = checkTrace(b.build());
    expect(verdict.violations.map((v) => [v.invariant, v.code])).toEqual([
      ['I27', 'OVER_LIMIT_PUBLISHED'],
      ['I27', 'OVER_LIMIT_DISCLOSED'],
      ['I27', 'OVER_LIMIT_ADMITTED'],
    ]);
    expect(verdict.violations[0]?.evidence).toMatch(/published a catalog of 3 tools, over toolCountMax 2$/);
    expect(verdict.violations[2]?.evidence).toMatch(
      /admitted "echo" from generation 1, whose publish seq \d+ of key .* was over a catalog limit$/,
    );
    expect(verdict.checked.I27).toBe(3);
  });

  it('a catalog exactly at the limits passes, and the work is still counted', () => {
    const verdict = checkTrace(
      publishShowAndAdmit(
        ['echo', 'read'],
        { toolCountMax: 2, catalogBytesMax: 200 },
        { echo: 100, read: 100 },
      ).build(),
    );
    expect(verdict.violations).toEqual([]);
    expect(verdict.checked.I27).toBe(3);
  });

  it('sums the sizes the world wrote into its revision views against catalogBytesMax', () => {
    const verdict = checkTrace(
      publishShowAndAdmit(
        ['echo', 'read'],
        { toolCountMax: 10, catalogBytesMax: 199 },
        { echo: 100, read: 100 },
      ).build(),
    );
    expect(verdict.violations.map((v) => v.code)).toEqual([
      'OVER_LIMIT_PUBLISHED',
      'OVER_LIMIT_DISCLOSED',
      'OVER_LIMIT_ADMITTED',
    ]);
    expect(verdict.violations[0]?.evidence).toMatch(
      /published a catalog of 200 bytes of descriptors, over catalogBytesMax 199$/,
    );
  });

  it('a trace whose header has no catalog limits (older traces) is not judged; views without sizes are judged on the count only', () => {
    const older = checkTrace(publishShowAndAdmit(['echo', 'read', 'write'], {}).build());
    expect(older.violations).toEqual([]);
    expect(older.checked.I27).toBe(0);
    const noSizes = checkTrace(
      publishShowAndAdmit(['echo', 'read', 'write'], { toolCountMax: 3, catalogBytesMax: 1 }).build(),
    );
    expect(noSizes.violations).toEqual([]);
  });
});
