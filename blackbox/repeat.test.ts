/**
 * `--repeat` folding and `--baseline` standing on hand-made runs: the worst outcome is kept, a
 * wire that differs between runs names the first event where the traces part, and a baseline
 * entry is expected, stale or changed exactly as docs/CLI.md says.
 */
import { describe, expect, it } from 'vitest';
import type { TraceEvent, TraceHeader } from '../sim/trace/recorder.ts';
import { baselineStanding } from './baseline.ts';
import { foldRepeats } from './repeat.ts';
import type { CaseOutcome, CaseRun } from './run-case.ts';

const header = {
  type: 'header',
  schema: 'catsim.trace.v1',
  seed: 's',
  round: 0,
  scenario: 'blackbox:c',
  core: 'host:h',
  bounds: {},
  faults: [],
} as unknown as TraceHeader;

/** A run of case `c` whose trace is the given event types. */
function run(outcome: CaseOutcome, types: string[]): CaseRun {
  const events = types.map((type, seq) => ({ seq, t: seq, src: 'world', type })) as unknown as TraceEvent[];
  return {
    agent: 'h',
    case: 'c',
    transport: 'stdio',
    outcome,
    line: `c: ${outcome.toLowerCase()}`,
    violations: [],
    hostFailure: null,
    steps: [],
    header,
    events,
    wireLog: [],
    stderr: '',
  };
}

describe('foldRepeats', () => {
  it('equal wires: the worst outcome, wireDiffers false', () => {
    const folded = foldRepeats([run('OK', ['a', 'b']), run('FAILED', ['a', 'b'])]);
    expect([folded.outcome, folded.line, folded.repeat]).toEqual([
      'FAILED',
      'c: failed',
      { runs: 2, outcomes: ['OK', 'FAILED'], wireDiffers: false },
    ]);
  });

  it('a wire that differs makes a passing case UNDECIDED, naming the first seq where the traces part', () => {
    const folded = foldRepeats([run('OK', ['a', 'b', 'c']), run('OK', ['a', 'b', 'c']), run('OK', ['a', 'x'])]);
    expect([folded.outcome, folded.line]).toEqual([
      'UNDECIDED',
      "c: the host's wire differed between run 1 and run 3 (first at seq 1: b vs x)",
    ]);
  });

  it('a wire that differs leaves a failure a failure, with the note added', () => {
    const folded = foldRepeats([run('HOST_FAILED', ['a']), run('OK', ['a', 'b'])]);
    expect([folded.outcome, folded.line]).toEqual([
      'HOST_FAILED',
      "c: host_failed; the host's wire differed between run 1 and run 2 (first at seq 1: nothing vs b)",
    ]);
  });
});

describe('baselineStanding', () => {
  const baseline = new Map<string, CaseOutcome>([['c@stdio', 'FAILED']]);
  it.each([
    ['FAILED', 'expected'],
    ['OK', 'stale'],
    ['NON-STRICT', 'stale'],
    ['HOST_FAILED', 'changed'],
  ] as const)('an entry expecting FAILED, outcome %s: %s', (outcome, standing) => {
    expect(baselineStanding('c@stdio', outcome, baseline)).toBe(standing);
  });
  it('no entry: none', () => {
    expect(baselineStanding('c@http', 'FAILED', baseline)).toBe('none');
  });
});
