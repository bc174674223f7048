/**
 * Candidate reductions of a round plan, for shrinking (SPEC section 10: "shrinking edits the
 * plan"). Each candidate is a smaller plan: fewer servers, audiences, revision steps or tools, a
 * fixed latency or page size, fewer planned calls, or a calmer setting of one fault (each fault's
 * own reductions are in its file under sim/faults/, gathered here in registry order). Candidates
 * are listed coarse first, so the shrinker removes big pieces before it tries small ones.
 */
import { ALL_FAULTS } from '../faults/index.ts';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import { withServer, type Reduction, type ServerReduction } from './reduction.ts';

export type { Reduction } from './reduction.ts';

/** Every single-step reduction of `plan`, coarse first. */
export function reductionsOf(plan: RoundPlan): Reduction[] {
  const out: Reduction[] = [];
  plan.servers.forEach((server, i) => {
    if (plan.servers.length > 1)
      out.push({
        name: `drop server ${server.id}`,
        plan: { ...plan, servers: plan.servers.filter((_, j) => j !== i) },
      });
  });
  plan.servers.forEach((server, i) => {
    for (const reduction of serverReductions(server))
      out.push({ name: `${server.id}: ${reduction.name}`, plan: withServer(plan, i, reduction.server) });
  });
  out.push(...callReductions(plan));
  for (const fault of ALL_FAULTS) out.push(...(fault.reductions?.(plan) ?? []));
  return out;
}

/** One server's reductions: audiences and revision steps, the faults' own, then latency, page size and tools. */
function serverReductions(server: ServerPlan): ServerReduction[] {
  const out: ServerReduction[] = [];
  server.audiences.forEach((audience) => {
    if (server.audiences.length > 1)
      out.push({
        name: `drop audience ${audience}`,
        server: { ...server, audiences: server.audiences.filter((a) => a !== audience) },
      });
  });
  server.history.forEach((step, k) => {
    if (k > 0)
      out.push({
        name: `drop revision step at ${step.atMs} ms (${step.cause})`,
        server: { ...server, history: server.history.filter((_, j) => j !== k) },
      });
  });
  for (const fault of ALL_FAULTS) out.push(...(fault.serverReductions?.(server) ?? []));
  if (server.latencyMsMax > server.latencyMsMin)
    out.push({ name: 'fixed latency', server: { ...server, latencyMsMax: server.latencyMsMin } });
  if (server.pageSizeMax > server.pageSizeMin)
    out.push({ name: 'fixed page size', server: { ...server, pageSizeMax: server.pageSizeMin } });
  out.push(...toolReductions(server));
  return out;
}

/** Drop one tool name from every view of every step (planted defects go with their tool). */
function toolReductions(server: ServerPlan): ServerReduction[] {
  const names = new Set<string>();
  for (const step of server.history)
    for (const view of Object.values(step.views)) for (const tool of view) names.add(String(tool.name));
  return [...names].sort().map((name) => ({
    name: `drop tool ${name}`,
    server: {
      ...server,
      history: server.history.map((step) => ({
        ...step,
        views: Object.fromEntries(
          Object.entries(step.views).map(([a, view]) => [a, view.filter((tool) => tool.name !== name)]),
        ),
      })),
      planted: server.planted.filter((p) => p.descriptor.name !== name),
    },
  }));
}

/** The planners' calls: none at all, or only valid arguments (F10's and F17's are in their files). */
function callReductions(plan: RoundPlan): Reduction[] {
  const out: Reduction[] = [];
  const calls = plan.calls;
  if (calls.callFraction > 0)
    out.push({ name: 'no planned calls', plan: { ...plan, calls: { ...calls, callFraction: 0 } } });
  if (calls.invalidArgsFraction > 0)
    out.push({ name: 'valid arguments only', plan: { ...plan, calls: { ...calls, invalidArgsFraction: 0 } } });
  return out;
}

/**
 * A size measure: smaller is simpler. Each server counts 100, 20 per audience, 10 per revision
 * step and 1 per tool name; each fault adds its planned events (`FaultDefinition.size`).
 */
export function planSize(plan: RoundPlan): number {
  let size = 0;
  for (const server of plan.servers) {
    size += 100 + 20 * server.audiences.length + 10 * server.history.length;
    size += new Set(
      server.history.flatMap((step) =>
        Object.values(step.views)
          .flat()
          .map((tool) => tool.name),
      ),
    ).size;
  }
  return ALL_FAULTS.reduce((sum, fault) => sum + (fault.size?.(plan) ?? 0), size);
}
