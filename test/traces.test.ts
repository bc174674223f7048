import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTrace, parseTrace } from '../oracle/index.ts';
import { runMain } from './support/run-main.ts';
import { catsim } from './support/run-cli.ts';

/** Violation codes of a saved trace, counted: `I1 NO_FINAL_RECHECK` -> 10. */
function codes(path: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of checkTrace(parseTrace(readFileSync(path, 'utf8'))).violations)
    counts[`${v.invariant} ${v.code}`] = (counts[`${v.invariant} ${v.code}`] ?? 0) + 1;
  return counts;
}

// scenarios/traces/ holds traces saved with `catsim replay --trace` (the bad ones from plans
// shrunk with `catsim shrink`): the oracle must keep giving each its known verdict.
describe('catsim check on the known traces of scenarios/traces/', () => {
  it('a reference-core round (seed 1, round 5) is clean', async () => {
    expect(codes('scenarios/traces/good-reference-seed1-round5.jsonl')).toEqual({});
    const { code, stdout } = await catsim(['check', 'scenarios/traces/good-reference-seed1-round5.jsonl']);
    expect(code).toBe(0);
    expect(stdout).toContain('verdict: clean');
  });

  it('the shrunk no-final-recheck round fails I1 NO_FINAL_RECHECK on each of its 10 publishes, and nothing else', async () => {
    expect(codes('scenarios/traces/bad-no-final-recheck-shrunk.jsonl')).toEqual({ 'I1 NO_FINAL_RECHECK': 10 });
    const { code, stdout } = await catsim(['check', 'scenarios/traces/bad-no-final-recheck-shrunk.jsonl']);
    expect(code).toBe(1);
    expect(stdout).toContain('verdict: 10 violations');
  });

  it('the shrunk key-without-tenant round is caught by I4 (and I2, I12)', async () => {
    expect(codes('scenarios/traces/bad-key-without-tenant-shrunk.jsonl')).toEqual({
      'I2 PAGE_FOREIGN': 10,
      'I4 FOREIGN_KEY': 9,
      'I12 NOT_PUBLISHED': 1,
    });
    expect((await catsim(['check', 'scenarios/traces/bad-key-without-tenant-shrunk.jsonl'])).code).toBe(1);
  });

  it('a trace that is not a trace gives one line and exit 2', async () => {
    const { code } = await catsim(['check', 'README.md']);
    expect(code).toBe(2);
  });
});

// A trace the recorder did not finish (a killed writer, a copy cut short) must not pass as clean:
// `check` refuses it with one line naming the file and the line, exit 2 (docs/TRACE.md, Complete traces).
describe('catsim check on an incomplete or malformed trace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-check-'));
  /** The 135 lines of the good trace: the header, then seq 0..133, the last being round_end. */
  const good = readFileSync('scenarios/traces/good-reference-seed1-round5.jsonl', 'utf8').trimEnd().split('\n');
  const quietAfterEnd = '{"seq":134,"t":7760,"src":"world","type":"quiet"}';
  const cases: [string, string, string][] = [
    ['an empty file', '', 'line 1: missing header (the trace is empty)'],
    ['a header alone', `${good[0]}\n`, 'line 1: truncated trace: no "round_end" event (the header is the only line)'],
    [
      'a trace cut before its round_end',
      `${good.slice(0, -1).join('\n')}\n`,
      'line 134: truncated trace: no "round_end" event (the last event is seq 132)',
    ],
    ['a trace cut inside its last line', good.join('\n').slice(0, -20), 'line 135: not valid JSON'],
    [
      'an event after round_end',
      `${[...good, quietAfterEnd].join('\n')}\n`,
      'line 136: "quiet" event after "round_end" (on line 135; round_end must be the last event)',
    ],
    ['a gap in seq', `${good.filter((_, index) => index !== 49).join('\n')}\n`, 'line 50: "seq" is 49, expected 48'],
  ];
  /** Writes `text` as a trace file and expects `catsim check` to refuse it with exactly `problem`, exit 2. */
  const expectRefused = async (name: string, text: string, problem: string): Promise<void> => {
    const path = join(dir, `${name.replaceAll(' ', '-')}.jsonl`);
    writeFileSync(path, text);
    const { code, stdout, stderr } = await runMain(['check', path]);
    expect(stderr).toBe(`catsim: ${path}: ${problem}\n`);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  };
  it.each(cases)('refuses %s with one line and exit 2', expectRefused);

  /** The good trace with line `lineNo` (1-based) replaced by `edit` of its event. */
  const editLine = (lineNo: number, edit: (event: Record<string, unknown>) => Record<string, unknown>): string =>
    `${good.map((line, index) => (index === lineNo - 1 ? JSON.stringify(edit(JSON.parse(line) as Record<string, unknown>)) : line)).join('\n')}\n`;
  // Line 12 is seq 10, the first page_read of scan-0; line 17 its scan_ended; line 22 (seq 20) the first receipt.
  const malformed: [string, string, string][] = [
    [
      'an unknown event type',
      editLine(12, (e) => ({ ...e, type: 'page_peeked' })),
      'line 12: unknown event type "page_peeked" (not in catsim.trace.v1)',
    ],
    [
      'a core event under src world',
      editLine(12, (e) => ({ ...e, src: 'world' })),
      'line 12: "page_read" must have src "core", found "world"',
    ],
    [
      'a missing field',
      editLine(12, ({ cursorIn: _dropped, ...e }) => e),
      'line 12: "page_read" has no field "cursorIn"',
    ],
    [
      'a field of the wrong type',
      editLine(12, (e) => ({ ...e, cursorIn: 7 })),
      'line 12: "page_read".cursorIn must be a string or null',
    ],
    [
      'a field the contract does not list',
      editLine(12, (e) => ({ ...e, bytes: 812 })),
      'line 12: "page_read" has an unknown field "bytes"',
    ],
    [
      'an unknown field inside a field',
      editLine(22, (e) => ({ ...e, disclosure: { ...(e['disclosure'] as object), shown: true } })),
      'line 22: "receipt".disclosure has an unknown field "shown"',
    ],
    [
      'a code outside its set',
      editLine(17, (e) => ({ ...e, state: 'PROVEN' })),
      'line 17: "scan_ended".state must be one of "SNAPSHOT_PROVEN", "UNVERSIONED_OBSERVATION", "INCOMPLETE", "QUARANTINED"',
    ],
  ];
  it.each(malformed)('refuses %s with one line naming the line and the field, exit 2', expectRefused);

  it('still judges the complete trace those were cut from', async () => {
    const { code, stdout, stderr } = await runMain(['check', 'scenarios/traces/good-reference-seed1-round5.jsonl']);
    expect(stderr).toBe('');
    expect(stdout).toContain('134 events');
    expect(stdout).toContain('verdict: clean');
    expect(code).toBe(0);
  });
});
