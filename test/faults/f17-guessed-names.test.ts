/**
 * F17: a model calling a real tool name that was never listed to its session.
 *
 * One versioned server, two audiences: acme.dev is shown read_file and list_directory, acme.ops
 * read_file, write_file and move_file. Each session's planner ticks every 100 ms from t=100 while
 * t < T_heal = 1000 (9 ticks) and, with callFraction = guessFraction = 1, every tick guesses a
 * name of the server's that its own catalog lacks: acme.dev one of write_file and move_file, acme.ops
 * list_directory (the only name of acme.dev's view it was not shown). That is 18 guessed calls, and
 * reject-on-novel refuses every one locally with UNDISCLOSED_TOOL: nothing reaches the server until
 * the quiet tail's 5 probes (2 + 3 disclosed tools), which are all admitted and executed.
 */
import { describe, expect, it } from 'vitest';
import { handPlan, handServer, runHand, step, tools } from '../support/hand-plan.ts';

const plan = () =>
  handPlan({
    faults: ['F17'],
    servers: [
      handServer({
        audiences: ['acme.dev', 'acme.ops'],
        history: [
          step(0, 7, {
            'acme.dev': tools('read_file', 'list_directory'),
            'acme.ops': tools('read_file', 'write_file', 'move_file'),
          }),
        ],
      }),
    ],
    calls: { callFraction: 1, guessFraction: 1 },
  });

describe('F17: guessed tool names', () => {
  it('18 guesses, 9 per session, each refused UNDISCLOSED_TOOL and never sent; only the 5 probes are executed', async () => {
    const run = await runHand(plan());

    const guessed = run.of('plan_made').filter((e) => e.kind === 'guessed');
    expect(guessed.map((e) => e.t)).toEqual([
      100, 100, 200, 200, 300, 300, 400, 400, 500, 500, 600, 600, 700, 700, 800, 800, 900, 900,
    ]);
    expect(new Set(guessed.filter((e) => e.session === 's0/acme.dev').map((e) => e.tool as string))).toEqual(
      new Set(['write_file', 'move_file']),
    );
    expect(guessed.filter((e) => e.session === 's0/acme.ops').map((e) => e.tool)).toEqual(
      Array(9).fill('list_directory'),
    );

    const decisionOf = new Map(run.of('gate_decision').map((e) => [e.callId, e.decision]));
    expect(guessed.map((e) => decisionOf.get(`${String(e.session)}#${String(e.planId)}`))).toEqual(
      Array(18).fill('UNDISCLOSED_TOOL'),
    );
    expect(run.verdict.metrics.decisions).toEqual({ UNDISCLOSED_TOOL: 18, ADMIT: 5 });
    expect(
      run
        .of('call_executed')
        .map((e) => [e.audience, e.tool])
        .sort(),
    ).toEqual([
      ['acme.dev', 'list_directory'],
      ['acme.dev', 'read_file'],
      ['acme.ops', 'move_file'],
      ['acme.ops', 'read_file'],
      ['acme.ops', 'write_file'],
    ]);
    expect(run.of('call_executed').every((e) => e.t >= 2022)).toBe(true);
    expect(run.verdict.violations).toEqual([]);
  });
});
