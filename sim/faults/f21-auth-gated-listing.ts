/**
 * F21: for a while, a server answers `tools/list` of one audience with an authorization error
 * (JSON-RPC -32003, AUTHORIZATION_REQUIRED_CODE: a token expired, a grant was withdrawn) instead
 * of a page. The catalog of that audience is then unknown, not empty: a core must end the scan
 * INCOMPLETE AUTH_REQUIRED and retry, never publish an empty (or partial) catalog (I20).
 *
 * Models the field report of issue 13 item 6 ("a listing refused for authorization shown as an
 * empty complete catalog"); mcp-facts: "the set MAY vary by the authorization presented".
 *
 * How often: on 1 server in 2 of a round that enables F21, 1 or 2 windows of 200 to 1,200 ms, each
 * for one of its audiences, starting at seeded times in [1, T_heal - 1,200); every window closes
 * before T_heal, so liveness (I12) is still owed in the quiet tail.
 */
import { AUTHORIZATION_REQUIRED_CODE } from '../../contract/trace/codes.ts';
import { distinctTimes, drawIn, pickAt } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { counts, fraction, msRange } from './rates.ts';
import { arrayOf, audience, ms, object } from '../plan/schema-parts.ts';

/** F21: from `fromMs` until `toMs` (virtual ms), `tools/list` of `audience` is refused for authorization. */
export interface AuthGate {
  audience: string;
  fromMs: number;
  toMs: number;
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F21: windows in which the server refuses `tools/list` of an audience for authorization; absent: none. */
    authGated?: AuthGate[];
  }
}

/** How often F21 acts (scenario `faultRates.F21`), with its defaults. */
export const RATES = {
  serverFraction: fraction(
    0.5,
    'Share of the servers of a round that enables F21 that refuse listings for authorization.',
  ),
  gatesPerServer: counts(1, 2, 'Windows per such server, each for one of its audiences.', 1),
  gateLengthMs: msRange(200, 1200, 'How long one window lasts, ms.'),
};

/** Whether a window refuses `audience` now. */
function gated(gates: readonly AuthGate[], audience: string, nowMs: number): boolean {
  return gates.some((gate) => gate.audience === audience && nowMs >= gate.fromMs && nowMs < gate.toMs);
}

function rules(server: ServerPlan, env: { now(): number }): ServerRule[] {
  const gates = server.authGated ?? [];
  if (gates.length === 0) return [];
  return [{ onList: (audience) => (gated(gates, audience, env.now()) ? AUTHORIZATION_REQUIRED_CODE : null) }];
}

/** F21: auth-gated listing. */
export const F21: FaultDefinition<'F21', typeof RATES> = {
  id: 'F21',
  rates: RATES,
  plan: {
    server: {
      authGated: {
        schema: arrayOf(object({ audience, fromMs: ms, toMs: ms }), 'an array of authorization gates'),
      },
    },
  },
  title: '`tools/list` refused for authorization for some audiences, for a while',
  lifetime: 'episode',
  probes: ['auth-refused-incomplete'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => (server.authGated ?? []).length > 0),
  generate: {
    episodes(draft, rng, rates) {
      const starts = distinctTimes(
        rng,
        drawIn(rng, rates.gatesPerServer),
        draft.scenario.tHealMs - rates.gateLengthMs.max,
      );
      draft.server.authGated = starts.flatMap((fromMs) => {
        const [at, length] = [rng.next(), drawIn(rng, rates.gateLengthMs)];
        const audience = pickAt(at, draft.server.audiences);
        return audience === undefined ? [] : [{ audience, fromMs, toMs: fromMs + length }];
      });
    },
  },
  // The windows' times come from F21's stream alone; which audience a window gates also depends
  // on the audiences other faults added (F16), so it is not part of the fragment.
  fragment: (plan) => perServer(plan, (server) => (server.authGated ?? []).map((gate) => [gate.fromMs, gate.toMs])),
  serverRules: rules,
  serverReductions: (server) =>
    (server.authGated ?? []).map((gate, i) => ({
      name: `no authorization gate for ${gate.audience} at ${gate.fromMs} ms`,
      server: { ...server, authGated: (server.authGated ?? []).filter((_, j) => j !== i) },
    })),
};
