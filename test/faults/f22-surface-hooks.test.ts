/**
 * F22: host extensions tamper with the model's tool surface (seed 003).
 *
 * One versioned server, one audience (acme.dev) shown read_file, search_files and write_file, all
 * granted. Latency 5 ms, two tools a page: the first scan publishes generation 1 at t=40 (pages
 * read at 20 and 30, the recheck at 40); B (the revocation bound) is 300 ms, so from t=300 on no
 * tool is contested and the world's baseline is exactly those three tools, in that order. From
 * t=400, one model turn every 20 ms (request ids `s0/acme.dev#m0`, `#m1`, ... in time order),
 * each right after a disclosure, with pick 0 (the hooks work on read_file, the first tool):
 *
 * - the 13 harmful hook kinds, one turn each: the reference stage refuses each SURFACE_MISMATCH,
 *   with the field the stage's rules give (docs/SURFACE.md, "The mismatch type"): add-tool
 *   (write_report, no unlisted tool on this server) and add-helper are `unadmitted`; remove-tool,
 *   top-n (3 → 1), hide-on-diagnostic (search_files) and shadow-whitelist (3 → 1) are `count`;
 *   reorder is `order`; rename is `name`; edit-description and launder (the late stage would
 *   restore it) are `description`; replace-schema and edit-schema-in-place are `inputSchema`; all
 *   early, except async-late-edit, whose edit lands 1 ms after the pipeline and is refused by the
 *   final check (`description`);
 * - the 11 harmless hook kinds, one turn each: all dispatched, the model receives the three tools;
 * - no hook and a late edit of a description, then of a schema: the final check refuses them;
 * - no hook with a capacity of 2 tools (short): CAPACITY_EXCEEDED toolCountMax; with a byte
 *   capacity that holds exactly the baseline: dispatched;
 * - compress-messages with late evidence (both harmless): dispatched.
 * 29 turns: 16 refused (13 harmful, 2 late edits, 1 short capacity), 13 dispatched.
 *
 * Each surface mutant runs the same plan and is caught by its own invariant, on the turns worked
 * out below; the reference core has no violation.
 */
import { describe, expect, it } from 'vitest';
import type { CoreFactory } from '../../sim/guard/adapter.ts';
import { referenceCore } from '../../cores/reference.ts';
import { MUTANTS } from '../../cores/mutants/index.ts';
import { runHand, type HandRun } from '../support/hand-plan.ts';
import { surfaceTurnsPlan } from '../mutants/plans.ts';

const plan = surfaceTurnsPlan;

/** Each turn's outcome: `dispatched` or the refusal's `code check field` (or `code limit`). */
function outcomes(run: HandRun): string[] {
  const first = new Map<string, string>();
  for (const settled of run.of('request_settled')) {
    if (first.has(settled.requestId)) continue;
    first.set(
      settled.requestId,
      settled.settlement === 'dispatched'
        ? 'dispatched'
        : [settled.code, settled.check, settled.field, settled.limit].filter((part) => part !== null).join(' '),
    );
  }
  return run.of('model_turn').map((event) => first.get(event.requestId) ?? 'unsettled');
}

const codes = (run: HandRun): string[] => run.verdict.violations.map((v) => `${v.invariant} ${v.code}`).sort();
const mutant = (name: string) => MUTANTS.find((candidate) => candidate.name === name)!.core;

const EARLY = (field: string) => `SURFACE_MISMATCH early ${field}`;
const FINAL = (field: string) => `SURFACE_MISMATCH final ${field}`;

describe('F22: surface hooks', () => {
  it('the reference stage refuses every harmful hook with the right check and field, settles it once, and dispatches every harmless one', async () => {
    const run = await runHand(plan());
    expect(run.of('published')[0]).toMatchObject({ t: 40, generation: 1 });
    const turnEvents = run.of('model_turn');
    expect(turnEvents.every((e) => e.generation === 1)).toBe(true);
    expect(turnEvents.map((e) => e.t)).toEqual(Array.from({ length: 29 }, (_, i) => 400 + 20 * i));
    expect(turnEvents[0]?.baseline.map((tool) => [tool.name, tool.contested])).toEqual([
      ['read_file', false],
      ['search_files', false],
      ['write_file', false],
    ]);
    expect(outcomes(run)).toEqual([
      // add-tool, remove-tool, reorder, replace-schema, edit-schema-in-place, add-helper, edit-description
      EARLY('unadmitted'),
      EARLY('count'),
      EARLY('order'),
      EARLY('inputSchema'),
      EARLY('inputSchema'),
      EARLY('unadmitted'),
      EARLY('description'),
      // rename, async-late-edit, launder, top-n, hide-on-diagnostic, shadow-whitelist
      EARLY('name'),
      FINAL('description'),
      EARLY('description'),
      EARLY('count'),
      EARLY('count'),
      EARLY('count'),
      ...Array(11).fill('dispatched'),
      FINAL('description'),
      FINAL('inputSchema'),
      'CAPACITY_EXCEEDED toolCountMax',
      'dispatched',
      'dispatched',
    ]);
    // Each request settled exactly once, and only dispatched ones reached the model, whole.
    expect(run.of('request_settled')).toHaveLength(29);
    expect(run.of('request_settled').every((e) => e.accepted)).toBe(true);
    const received = run.of('model_received');
    expect(received).toHaveLength(13);
    expect(
      received.every(
        (e) =>
          JSON.stringify(e.tools) ===
          JSON.stringify(turnEvents[0]?.baseline.map(({ name, digest }) => ({ name, digest }))),
      ),
    ).toBe(true);
    expect(run.of('model_turn_ended')).toHaveLength(29);
    const capacity = turnEvents.map((e) => e.capacity).filter((c) => c !== null);
    expect(capacity.map((c) => [c.limit, c.available, c.requiredMin, c.requiredMax])).toEqual([
      ['toolCountMax', 2, 3, 3],
      ['surfaceBytesMax', capacity[1]?.requiredMax, capacity[1]?.requiredMax, capacity[1]?.requiredMax],
    ]);
    expect(run.verdict.violations).toEqual([]);
    expect([
      run.verdict.checked.I22,
      run.verdict.checked.I23,
      run.verdict.checked.I24,
      run.verdict.checked.I25,
      run.verdict.checked.I26,
    ]).toEqual([13, 13, 29, 2, 13]);
  });

  it('a seal made from the final request lets the three late edits through: I22 and I23 on each', async () => {
    const run = await runHand(plan(), mutant('seal-from-final-request'), 'mutant:seal-from-final-request');
    expect(codes(run)).toEqual([...Array(3).fill('I22 CONTENT_CHANGED'), ...Array(3).fill('I23 MISMATCH_DISPATCHED')]);
  });

  it('a shallow baseline shares schema objects: the in-place edits (by a hook and late) change both sides and pass', async () => {
    const run = await runHand(plan(), mutant('shallow-baseline'), 'mutant:shallow-baseline');
    expect(codes(run)).toEqual([...Array(2).fill('I22 CONTENT_CHANGED'), ...Array(2).fill('I23 MISMATCH_DISPATCHED')]);
  });

  it('only the early check: the three late edits are dispatched', async () => {
    const run = await runHand(plan(), mutant('only-early-check'), 'mutant:only-early-check');
    expect(codes(run)).toEqual([...Array(3).fill('I22 CONTENT_CHANGED'), ...Array(3).fill('I23 MISMATCH_DISPATCHED')]);
  });

  it('a refusal without settlement leaves all 16 refused reservations open: I24 NOT_SETTLED', async () => {
    const run = await runHand(plan(), mutant('refusal-without-settlement'), 'mutant:refusal-without-settlement');
    expect(codes(run)).toEqual(Array(16).fill('I24 NOT_SETTLED'));
    expect(run.of('model_received')).toHaveLength(13);
  });

  it("a double settlement: the world's ledger refuses each second one (I24 SETTLED_TWICE) and the core's turn rejects (CORE_FAILED, once a round)", async () => {
    const run = await runHand(plan(), mutant('double-settlement'), 'mutant:double-settlement');
    expect(codes(run)).toEqual([...Array(16).fill('I24 SETTLED_TWICE'), 'CORE_FAILED REJECTED'].sort());
    expect(run.of('request_settled').filter((e) => !e.accepted)).toHaveLength(16);
  });

  it('a silent top-N cut dispatches 2 of the 3 tools under the short capacity: I25 SHORTFALL_DISPATCHED, and the cut surface fails I22 and I23', async () => {
    const run = await runHand(plan(), mutant('silent-top-n'), 'mutant:silent-top-n');
    expect(codes(run)).toEqual(['I22 MISSING_TOOL', 'I23 MISMATCH_DISPATCHED', 'I25 SHORTFALL_DISPATCHED']);
  });

  it('hooks allowed to add tools: write_report and read_tool_result reach the model (I22 UNADMITTED_TOOL, I23)', async () => {
    const run = await runHand(plan(), mutant('hooks-add-tools'), 'mutant:hooks-add-tools');
    expect(codes(run)).toEqual([...Array(2).fill('I22 UNADMITTED_TOOL'), ...Array(2).fill('I23 MISMATCH_DISPATCHED')]);
    expect(
      run
        .of('model_received')
        .flatMap((e) => e.tools.map((t) => t.name))
        .filter((name) => name === 'write_report' || name === 'read_tool_result'),
    ).toEqual(['write_report', 'read_tool_result']);
  });

  it('a core without a surface stage (no modelTurn) is not broken: no turn runs, the trace says so once, and no surface invariant applies', async () => {
    const withoutStage: CoreFactory = (env) => {
      const core = referenceCore()(env);
      return {
        createClient: () => core.createClient!(),
        attach: (s) => core.attach(s),
        disclose: (...a) => core.disclose(...a),
        call: (r) => core.call(r),
        pushPolicy: (u) => core.pushPolicy(u),
        stop: () => core.stop(),
      };
    };
    const run = await runHand(plan(), withoutStage, 'no-surface-stage');
    expect(run.of('surface_unsupported').map((e) => [e.t, e.turns])).toEqual([[0, 29]]);
    expect(run.of('model_turn')).toEqual([]);
    expect(run.verdict.violations).toEqual([]);
    expect([run.verdict.checked.I22, run.verdict.checked.I24, run.verdict.metrics.surface.unsupportedTurns]).toEqual([
      0, 0, 29,
    ]);
  });
});
