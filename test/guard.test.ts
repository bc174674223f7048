import { describe, expect, it } from 'vitest';
import { runAndCheck } from '../runner/round-check.ts';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import type { CoreAdapter, CoreFactory, DisclosureResult } from '../sim/guard/adapter.ts';
import { disclosureProblem, errorText, missingMethods } from '../sim/guard/guard.ts';

const SCENARIO = loadScenario('default');
/**
 * Seed 1 round 6, where these tests run unless they say otherwise: one boot, since F18 entered the
 * default scenario (issue 27.4) and plans a host restart in rounds 0, 1, 2, 4, 5 and 7 of seed 1
 * (each boot calls `create` and attaches again); one server, s0, with three audiences.
 */
const QUIET_ROUND = 6;

/** Round 6 of seed 1 offers the core this many catalog keys (one attach each). */
const KEYS = generatePlan('1', QUIET_ROUND, SCENARIO).servers.reduce((sum, server) => sum + server.audiences.length, 0);

/** A core that shows nothing and does nothing, with `change` applied. */
function core(change: Partial<CoreAdapter>): CoreFactory {
  return () => ({
    attach: () => undefined,
    disclose: () => ({ ok: false, code: 'INCOMPLETE_DISCOVERY' }),
    call: async () => undefined,
    pushPolicy: () => undefined,
    stop: () => undefined,
    ...change,
  });
}

/**
 * Seed 1 round 3: the first seed-1 round in which a core that does nothing owes liveness. Round 0's
 * only server, s0, comes up with the traits `PLANTED:F13` and `F23:bytes`, both disqualifying for
 * I12, so an inert core passes round 0; round 3 has two servers without traits, s0 (acme.dev) and
 * s1 (globex.dev, acme.dev, acme.ops), and the inert example core fails it with four
 * I12 NOT_PUBLISHED (`catsim replay --seed 1 --round 3 --core examples/testing/inert-core.ts`).
 */
const OWING_ROUND = 3;

/** Round `round` (default {@link QUIET_ROUND}) of seed 1 on `factory`: its `core_failed` events as `during reason error`, and its verdict ids. */
async function failures(
  factory: CoreFactory,
  round = QUIET_ROUND,
): Promise<{ failed: string[]; last: string; verdicts: string[] }> {
  const { run, summary } = await runAndCheck('1', round, SCENARIO, factory, 'test');
  const failed = run.events
    .filter((event) => event.type === 'core_failed')
    .map((event) => `${event.during} ${event.reason} ${event.error}`);
  return {
    failed,
    last: String(run.events.at(-2)?.type),
    verdicts: [...new Set(summary.violations.map((violation) => `${violation.invariant} ${violation.code}`))].sort(),
  };
}

describe('the guard between the world and a core', () => {
  it('a factory that throws in a round leaves an inert core: one CORE_FAILED, and the keys it owed are not published', async () => {
    const result = await failures(() => {
      throw new RangeError('no room');
    }, OWING_ROUND);
    expect(result.failed).toEqual(['create THREW RangeError: no room']);
    expect(result.verdicts).toEqual(['CORE_FAILED THREW', 'I12 NOT_PUBLISHED']);
  });

  it('a factory that returns no core is a MALFORMED_ANSWER of create', async () => {
    const result = await failures((() => ({ attach: () => undefined })) as unknown as CoreFactory);
    expect(result.failed).toEqual([
      // The error text is cut at ERROR_TEXT_MAX (200) characters.
      'create MALFORMED_ANSWER TypeError: create() returned a core without disclose, call, pushPolicy, stop (a catsim.core.v1 core has attach, disclose, call, pushPolicy and stop, and may have createClient, modelTurn, rollback, ...',
    ]);
  });

  it('a core whose member getter throws is a THREW of create (the core failed, not the testbed): one CORE_FAILED, an inert core', async () => {
    const result = await failures(() => {
      const methods = core({})(undefined as never);
      return Object.defineProperty(methods, 'rollback', {
        get: () => {
          throw new Error('rollback is not wired');
        },
        enumerable: true,
      });
    }, OWING_ROUND);
    expect(result.failed).toEqual(['create THREW Error: rollback is not wired']);
    expect(result.verdicts).toEqual(['CORE_FAILED THREW', 'I12 NOT_PUBLISHED']);
  });

  it('each member is read once, when the core is built, and called with the core as this', async () => {
    let reads = 0;
    const seen: unknown[] = [];
    const result = await failures(() => {
      const target = {
        ...core({})(undefined as never),
        stop() {
          seen.push(this);
        },
        get disclose() {
          reads += 1;
          if (reads > 1) throw new Error('read twice');
          return (): DisclosureResult => ({ ok: false, code: 'INCOMPLETE_DISCOVERY' });
        },
      };
      return target;
    });
    expect(result.failed).toEqual([]);
    expect(reads).toBe(1);
    expect(seen).toHaveLength(1);
    expect(typeof (seen[0] as { stop?: unknown }).stop).toBe('function');
  });

  it('an optional method that is not a function is named as such, beside the missing ones', () => {
    expect(missingMethods({ attach() {}, disclose() {}, call() {}, pushPolicy() {}, stop() {}, rollback: 42 })).toBe(
      'create() returned a core whose optional rollback is not a function (a catsim.core.v1 core has attach, disclose, call, pushPolicy and stop, and may have createClient, modelTurn, rollback, emergencyDisable, deprecate, alias, remove and attachBackup)',
    );
    expect(missingMethods({ attach() {}, modelTurn: 'no', rollback: {} })).toBe(
      'create() returned a core without disclose, call, pushPolicy, stop and whose optional modelTurn, rollback are not functions (a catsim.core.v1 core has attach, disclose, call, pushPolicy and stop, and may have createClient, modelTurn, rollback, emergencyDisable, deprecate, alias, remove and attachBackup)',
    );
    expect(missingMethods({ attach() {}, disclose() {}, call() {}, pushPolicy() {}, stop() {} })).toBeNull();
  });

  it('attach, a scheduled callback, createClient and stop: each failure recorded where it happened, the round goes on', async () => {
    let scheduler: { after(delayMs: number, fn: () => void): unknown } | undefined;
    const result = await failures((env) => {
      scheduler = env.scheduler;
      return core({
        attach: (session) => {
          scheduler?.after(10, () => {
            throw new Error('tick');
          });
          void session.connector.connect().catch(() => undefined);
          throw new Error('attach');
        },
        createClient: () => ({}) as never,
        stop: () => {
          throw new Error('stop');
        },
      })(env);
    });
    const expected = [
      ...Array(KEYS).fill('attach THREW Error: attach'),
      ...Array(KEYS).fill('createClient MALFORMED_ANSWER TypeError: createClient() returned {}, not an SDK Client'),
      ...Array(KEYS).fill('scheduled THREW Error: tick'),
      'stop THREW Error: stop',
    ];
    expect([...result.failed].sort()).toEqual([...expected].sort());
    expect(result.failed.at(-1)).toBe('stop THREW Error: stop');
    expect(result.last).toBe('core_failed');
  });

  it('disclose: a throw and an answer outside the API both show nothing (CORE_FAILED) and are recorded at each question', async () => {
    const thrown = await failures(
      core({
        disclose: () => {
          throw new Error('no');
        },
      }),
    );
    // Issue 35 item 10: an async disclose was told "returned ok: undefined".
    const promised = await failures(
      core({ disclose: (async () => ({ ok: false, code: 'INCOMPLETE_DISCOVERY' })) as never }),
    );
    expect(new Set(promised.failed)).toEqual(
      new Set([
        'disclose MALFORMED_ANSWER TypeError: disclose() returned a Promise (is it async?): disclose must return its DisclosureResult synchronously',
      ]),
    );
    const malformed = await failures(core({ disclose: () => ({ ok: true, key: 'k' }) as never }));
    expect(new Set(thrown.failed)).toEqual(new Set(['disclose THREW Error: no']));
    expect(new Set(malformed.failed)).toEqual(
      new Set(['disclose MALFORMED_ANSWER TypeError: disclose() returned ok: true without an integer generation']),
    );
    expect(thrown.failed.length).toBe(malformed.failed.length);
    expect(thrown.failed.length).toBeGreaterThan(KEYS);
  });

  it('disclose: an answer whose fields do not fit the disclosure event of the trace contract is a MALFORMED_ANSWER', () => {
    const hex = 'ab'.repeat(32);
    const good = {
      ok: true,
      key: 'fp:1|acme.dev',
      generation: 1,
      snapshotDigest: hex,
      tools: [{ name: 'a', descriptorDigest: hex }],
    };
    expect(disclosureProblem(good)).toBeNull();
    expect(disclosureProblem({ ok: false, code: 'SERVER_DISABLED' })).toBeNull();
    expect(disclosureProblem({ ok: false, code: 'NOT_YET' })).toBe(
      'disclose() answered outside catsim.trace.v1: code must be one of "INCOMPLETE_DISCOVERY", "CATALOG_EXPIRED", "SERVER_DISABLED", "CORE_FAILED"',
    );
    expect(disclosureProblem({ ...good, key: 'acme.dev' })).toBe(
      'disclose() answered outside catsim.trace.v1: key must be a catalog key "<identity>|<tenant>.<role>"',
    );
    expect(disclosureProblem({ ...good, generation: -1 })).toBe(
      'disclose() answered outside catsim.trace.v1: generation must be a non-negative integer',
    );
    expect(disclosureProblem({ ...good, snapshotDigest: 'abc' })).toBe(
      'disclose() answered outside catsim.trace.v1: snapshotDigest must be 64 lowercase hex digits',
    );
    expect(
      disclosureProblem({ ...good, tools: [...good.tools, { name: 'b', descriptorDigest: 'B'.repeat(64) }] }),
    ).toBe("disclose() answered outside catsim.trace.v1: tool 2's descriptorDigest must be 64 lowercase hex digits");
  });

  it('error text is the name and first line, cut to 200 characters; a thrown non-Error is shown as JSON', () => {
    expect(errorText(new TypeError('first\nsecond'))).toBe('TypeError: first');
    expect(errorText(new Error('x'.repeat(300)))).toBe(`Error: ${'x'.repeat(190)}...`);
    expect(errorText({ code: 7 })).toBe('thrown {"code":7}');
    expect(errorText(undefined)).toBe('thrown undefined');
  });
});
