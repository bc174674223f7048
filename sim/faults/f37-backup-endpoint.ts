/**
 * F37: a backup endpoint with a different contract. A server has a backup endpoint (another
 * deployment of it: its own identity and build) that lists and executes the same tools, except
 * that for one tool it serves either the primary's contract (`same`, the control) or another one
 * (`other`: a new required input, so another descriptor digest). Mid-round the primary becomes
 * unreachable (every connection to it fails, and the world cuts the open ones) for a while; a
 * core with the capability (the core API's optional `attachBackup`) was handed the backup with
 * each session of the server and must decide whether to fail over: only to a backup serving the
 * contract the call's run pinned. The world writes the outage as `primary_down` (with the
 * backup's contract from the plan, the ground truth) and `primary_up`, and each call the backup
 * executes as `call_executed` with `endpoint: 'backup'` and the descriptor the backup lists; I40
 * (oracle/invariants/backups.ts) joins those to the runs' plans.
 *
 * Models seed 004 ("备实现必须通过同版本 contract tests") and issue 30 items 4 and 5 ("a backup
 * endpoint is used only if it serves the same contract version"; "a backup endpoint with a
 * different contract").
 *
 * How often: a round that enables F37 picks one legacy-era server (uniformly; none in a round
 * whose servers all speak the 2026-07-28 era), one tool among the names its first revision lists
 * to the audiences its planners' sessions connect as, the contract (`same` or `other`, even odds),
 * and, in the longest stretch of the server's history without a planned change, takes the primary
 * down at a time in its second sixth for a drawn 400 to 1,200 ms (never past the stretch's fifth
 * sixth), so the catalog the core published before the outage is still fresh while it lasts (the
 * scenario's generation TTL is longer); the planners call that tool on backedUpCallFraction 0.5 of
 * their calls from a disclosure that shows it.
 */
import type { Rng } from '../random.ts';
import type { CallsPlan, RoundPlan, ServerPlan } from '../plan/types.ts';
import type { SessionEpisode } from '../transport/link-rules.ts';
import type { FaultDefinition } from './fault.ts';
import { favouredToolRule, toolNamesShown } from './internal/operator-tools.ts';
import { fraction } from './rates.ts';
import { fractionSchema, ms, object, string } from '../plan/schema-parts.ts';
import { CHOICE_ORDER, type ToolChoiceRule } from '../planner-rules.ts';

/** Which contract the backup serves for the plan's tool: the primary's, or another. */
export type BackupContract = 'same' | 'other';

/** F37 on one server: its backup's contract for `tool`, and the primary's outage [downAtMs, upAtMs). */
export interface BackupEndpointPlan {
  tool: string;
  contract: BackupContract;
  downAtMs: number;
  upAtMs: number;
}

/** F37: the planners call the backed-up tool, when a disclosure shows it, on this share of their calls. */
export interface BackedUpCalls {
  tool: string;
  fraction: number;
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F37: a backup endpoint of this server and the primary's outage (absent: none). */
    backupEndpoint?: BackupEndpointPlan;
  }
  interface CallsPlan {
    /** F37: the backed-up tool the planners call on a share of their calls when shown it (absent: none). */
    backedUpCalls?: BackedUpCalls;
  }
}

/** How often F37 acts (scenario `faultRates.F37`), with its defaults. */
export const RATES = {
  backedUpCallFraction: fraction(
    0.5,
    "Share of the planned calls from a disclosure that shows the backed-up tool that call it (so calls come during the primary's outage).",
  ),
};

/** The shortest and longest outage of the primary, in ms. */
const OUTAGE_MS = [400, 1200] as const;

/**
 * The planners' rule (sim/planner-rules.ts): with the plan's `backedUpCalls.fraction`, the
 * backed-up tool when the disclosure shows it. Draws nothing in a plan without `backedUpCalls`.
 */
const BACKED_UP: ToolChoiceRule = favouredToolRule(CHOICE_ORDER.backup, (calls) => calls.backedUpCalls);

/**
 * The primary's outage in the longest stretch of the server's history without a planned change
 * (from one step to the next, or to T_heal): down in its second sixth, up 400 to 1,200 ms later
 * but not past its fifth sixth. Undefined when the stretch is shorter than 60 ms.
 */
function outage(rng: Rng, server: ServerPlan, tHealMs: number): [number, number] | undefined {
  const steps = [...server.history.map((step) => step.atMs).filter((atMs) => atMs < tHealMs), tHealMs];
  let [from, to] = [0, tHealMs];
  for (let at = 1; at < steps.length; at += 1) {
    const [start = 0, end = tHealMs] = [steps[at - 1], steps[at]];
    if (end - start > to - from || at === 1) [from, to] = [start, end];
  }
  const sixth = Math.floor((to - from) / 6);
  if (sixth < 10) return undefined;
  const downAt = Math.max(1, rng.int(from + sixth, from + 2 * sixth - 1));
  const lasting = rng.int(OUTAGE_MS[0], OUTAGE_MS[1]);
  return [downAt, Math.min(downAt + lasting, from + 5 * sixth)];
}

/** `calls` without F37's backed-up calls. */
function withoutBackedUpCalls(calls: CallsPlan): CallsPlan {
  const { backedUpCalls: _, ...rest } = calls;
  return rest;
}

/** `server` without F37. */
function withoutBackup(server: ServerPlan): ServerPlan {
  const { backupEndpoint: _, ...rest } = server;
  return rest;
}

/** Whether `server` speaks the legacy era (the only one F37 gives a backup). */
function legacy(server: ServerPlan): boolean {
  return server.era === undefined || server.era === 'legacy';
}

/**
 * The backup endpoint F37 gives `server` in the round, or undefined. A scenario's era mix (ERA,
 * drawn after every fault of the menu) may make the server F37 picked a 2026-07-28 one: its planned
 * backup then stays in the plan and does nothing (no outage, no backup handed to the core), as
 * F27's listen faults do on a server reached over HTTP. Every reader of the plan's
 * `backupEndpoint` goes through this.
 */
export function activeBackup(server: ServerPlan): BackupEndpointPlan | undefined {
  return legacy(server) ? server.backupEndpoint : undefined;
}

/** F37's cut of every session of the server when the primary goes down (the world refuses new connections until it is up). */
function outageCuts(server: ServerPlan): SessionEpisode[] {
  const backup = activeBackup(server);
  if (backup === undefined) return [];
  return [{ atMs: backup.downAtMs, run: (control) => control.disconnect() }];
}

/** F37: a backup endpoint with a different contract. */
export const F37: FaultDefinition<'F37', typeof RATES> = {
  id: 'F37',
  rates: RATES,
  plan: {
    server: {
      backupEndpoint: {
        schema: object(
          {
            tool: string,
            contract: { enum: ['same', 'other'], title: 'same or other' },
            downAtMs: ms,
            upAtMs: ms,
          },
          'a backup endpoint',
        ),
      },
    },
    calls: { backedUpCalls: { schema: object({ tool: string, fraction: fractionSchema }, 'the backed-up calls') } },
  },
  title:
    "a server's primary endpoint goes down while its backup serves the same tools, one of them under the same or another contract: a call fails over only to a backup serving the contract its run pinned",
  lifetime: 'episode',
  probes: ['backup-same-contract-used', 'backup-other-contract-refused'],
  plannerRules: [BACKED_UP],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => activeBackup(server) !== undefined),
  traits: (server) => {
    const backup = activeBackup(server);
    return backup === undefined ? [] : [`F37:${backup.contract}`];
  },
  sessionEpisodes: (server) => outageCuts(server),
  size: (plan) => plan.servers.filter((server) => activeBackup(server) !== undefined).length,
  // The server, tool and contract come first from F37's own stream; the times follow the server's history.
  generateRound({ plan }, rng, rates) {
    const servers = plan.servers.filter(legacy);
    if (servers.length === 0) return;
    const server = rng.pick(servers);
    const names = toolNamesShown(server);
    const tool = names.length === 0 ? '' : rng.pick(names);
    const contract: BackupContract = rng.chance(0.5) ? 'same' : 'other';
    const times = outage(rng, server, plan.bounds.tHealMs);
    if (times === undefined || tool === '') return;
    plan.calls.backedUpCalls = { tool, fraction: rates.backedUpCallFraction };
    server.backupEndpoint = { tool, contract, downAtMs: times[0], upAtMs: times[1] };
  },
  // The times and tool follow the server's history (other faults' data): only the contract is F37's own.
  fragment: (plan) => plan.servers.map((server) => server.backupEndpoint?.contract ?? null),
  serverReductions: (server) =>
    server.backupEndpoint === undefined ? [] : [{ name: 'no backup endpoint', server: withoutBackup(server) }],
  reductions: (plan) =>
    plan.calls.backedUpCalls === undefined
      ? []
      : [{ name: 'no backed-up calls', plan: { ...plan, calls: withoutBackedUpCalls(plan.calls) } }],
};
