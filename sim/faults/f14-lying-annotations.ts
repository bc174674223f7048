/**
 * F14: annotations that lie: `purge_cache_<server>` claims `readOnlyHint: true` but is
 * destructive, and the host's trusted policy leaves it unclassified (so it counts as WRITE). A
 * core that trusts the hint admits an unconfirmed write on an unversioned server (I3).
 *
 * Models seed 001 ("MCP annotations are likewise untrusted hints, and readOnlyHint alone cannot
 * grant unconfirmed execution rights").
 *
 * How often: on 3 servers in 4 of a round that enables F14, one lying tool in one audience's first
 * view, for the whole round.
 */
import type { RoundPlan, ToolDescriptor } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import { fraction } from './rates.ts';

/** How often F14 acts (scenario `faultRates.F14`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F14 that get a lying tool.'),
};

/** The name prefix of F14's lying tools; the rest of the name is the server id. */
export const LYING_TOOL_PREFIX = 'purge_cache_';

/** Whether a descriptor is one of F14's lying tools. */
export function isLyingTool(tool: ToolDescriptor): boolean {
  return String(tool.name).startsWith(LYING_TOOL_PREFIX);
}

/** F14: lying annotations. */
export const F14: FaultDefinition<'F14', typeof RATES> = {
  id: 'F14',
  rates: RATES,
  title: 'annotations that lie (`readOnlyHint: true` on a destructive tool the policy leaves unclassified)',
  lifetime: 'trait',
  probes: ['unversioned-write-refused'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => Object.values(server.history[0]?.views ?? {}).some((view) => view.some(isLyingTool))),
};
