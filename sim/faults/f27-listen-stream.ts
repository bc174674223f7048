/**
 * F27: a modern-era server's (MCP 2026-07-28) `subscriptions/listen` stream misbehaves, four ways:
 * - `unacknowledged`: for a while, a listen request that reaches the server is never taken up:
 *   no `notifications/subscriptions/acknowledged`, and nothing is ever delivered on it (the
 *   request stays open until its connection ends);
 * - `silenced`: at a planned time, every acknowledged stream of the server's live connections
 *   goes silent without ending: its changes reach those connections nowhere (`listen_silenced`);
 * - `completed`: at a planned time, the server ends every acknowledged stream with its result
 *   (`resultType: "complete"`), which the client must notice (`listen_ended` `complete`);
 * - `dropped`: at a planned time, the world cuts every connection of the server (`disconnected`):
 *   the server holds no subscription, so the client must send a fresh `subscriptions/listen` on
 *   the connection it opens next (judged by I32).
 * A core must not wait forever for an acknowledgement, must take a completed stream as the end
 * of its push channel, and must listen again on every new connection; the barrier and refresh
 * rules (I18, I19) hold for what the stream does deliver.
 *
 * Models issue 29's "a listen stream that is never acknowledged, ends silently, or is not
 * re-established after a reconnect" and the subscriptions pattern of 2026-07-28: the server "MUST
 * first send `notifications/subscriptions/acknowledged`", a graceful end is a listen result with
 * `resultType: "complete"`, and on stdio "the client MUST re-send `subscriptions/listen` after
 * reconnecting; the server holds no subscription state" (a stateless gateway that loses the
 * stream is the way it happens; seed 002).
 *
 * How often: on 1 server in 2 of a round that enables F27, 1 or 2 events at seeded times in
 * [1, T_heal - 1,200), each of a kind drawn from `kinds` (default all four); an `unacknowledged`
 * window lasts 200 to 1,200 ms and closes before T_heal. It acts only on a modern server (a legacy
 * server has no listen stream): the plan may hold events on a legacy server, which then do nothing.
 */
import { distinctTimes, drawIn } from '../plan/draws.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import { EPISODE_ORDER, type RuleEnv, type ServerRule } from '../server/rules.ts';
import type { SessionEpisode } from '../transport/link-rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { choices, counts, fraction, msRange } from './rates.ts';
import { arrayOf, ms, object } from '../plan/schema-parts.ts';

/** The ways F27 breaks a listen stream (see the header). */
export const LISTEN_FAULT_KINDS = ['unacknowledged', 'silenced', 'completed', 'dropped'] as const;
/** One of {@link LISTEN_FAULT_KINDS}. */
export type ListenFaultKind = (typeof LISTEN_FAULT_KINDS)[number];

/**
 * F27: one planned listen-stream fault. `unacknowledged` holds the listen requests that reach the
 * server in [fromMs, toMs); the other kinds act once, at `fromMs` (`toMs` is then `fromMs`).
 */
export interface ListenFault {
  kind: ListenFaultKind;
  fromMs: number;
  toMs: number;
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F27: what happens to a modern server's listen streams, in time order; absent: nothing. */
    listenFaults?: ListenFault[];
  }
}

/** How often F27 acts (scenario `faultRates.F27`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.5, 'Share of the servers of a round that enables F27 whose listen streams misbehave.'),
  eventsPerServer: counts(1, 2, 'Listen-stream faults per such server.', 1),
  kinds: choices(LISTEN_FAULT_KINDS, 'The kinds a fault is drawn from.'),
  windowLengthMs: msRange(200, 1200, 'How long an `unacknowledged` window lasts, ms.'),
};

/**
 * Whether F27 acts on `server`: a modern server reached over stdio. Over Streamable HTTP its listen
 * streams are the web handler's own, which has no hook for the fault (ERA draws the transport
 * after F27's draws, so a planned fault on such a server stays in the plan and does nothing).
 */
function acts(server: ServerPlan): boolean {
  return server.era === 'modern' && server.transport !== 'http';
}

/** The server's side: held listen requests, and silenced or completed streams at planned times. */
function rules(server: ServerPlan, env: RuleEnv): ServerRule[] {
  const faults = server.listenFaults ?? [];
  if (faults.length === 0 || !acts(server)) return [];
  const windows = faults.filter((fault) => fault.kind === 'unacknowledged');
  const held = (): boolean => windows.some((window) => env.now() >= window.fromMs && env.now() < window.toMs);
  const once = faults.filter((fault) => fault.kind === 'silenced' || fault.kind === 'completed');
  return [
    { onListen: () => (held() ? 'hold' : 'acknowledge') },
    {
      episodes: () =>
        once.map((fault) => ({
          atMs: fault.fromMs,
          order: EPISODE_ORDER.notification,
          run: (control) => (fault.kind === 'silenced' ? control.silenceListens() : control.completeListens()),
        })),
    },
  ];
}

/** The `dropped` faults: the world cuts the connection of every session of the server. */
function cuts(server: ServerPlan): SessionEpisode[] {
  if (!acts(server)) return [];
  return (server.listenFaults ?? [])
    .filter((fault) => fault.kind === 'dropped')
    .map((fault) => ({ atMs: fault.fromMs, run: (control) => control.disconnect() }));
}

/** F27: listen streams never acknowledged, silenced, completed, or lost with their connection. */
export const F27: FaultDefinition<'F27', typeof RATES> = {
  id: 'F27',
  rates: RATES,
  plan: {
    server: {
      listenFaults: {
        schema: arrayOf(
          object({ kind: { enum: [...LISTEN_FAULT_KINDS], title: 'a listen fault kind' }, fromMs: ms, toMs: ms }),
          'an array of listen faults',
        ),
      },
    },
  },
  title:
    "a modern server's listen stream is never acknowledged, goes silent, ends with `complete`, or is lost with its connection (the client must listen again)",
  lifetime: 'episode',
  probes: ['listen-stream-faulted'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => acts(server) && (server.listenFaults ?? []).length > 0),
  generate: {
    episodes(draft, rng, rates) {
      const starts = distinctTimes(
        rng,
        drawIn(rng, rates.eventsPerServer),
        draft.scenario.tHealMs - rates.windowLengthMs.max,
      );
      draft.server.listenFaults = starts.map((fromMs) => {
        const kind = rng.pick(rates.kinds);
        const lengthMs = drawIn(rng, rates.windowLengthMs);
        return { kind, fromMs, toMs: kind === 'unacknowledged' ? fromMs + lengthMs : fromMs };
      });
    },
  },
  fragment: (plan) =>
    perServer(plan, (server) => (server.listenFaults ?? []).map((fault) => [fault.kind, fault.fromMs, fault.toMs])),
  serverRules: rules,
  sessionEpisodes: cuts,
  size: (plan) => plan.servers.reduce((sum, server) => sum + (server.listenFaults ?? []).length, 0),
  serverReductions: (server) =>
    (server.listenFaults ?? []).map((fault, i) => ({
      name: `no ${fault.kind} listen fault at ${fault.fromMs} ms`,
      server: { ...server, listenFaults: (server.listenFaults ?? []).filter((_, j) => j !== i) },
    })),
};
