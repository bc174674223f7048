/**
 * Candidate reductions of a round plan, for shrinking (SPEC section 10: "shrinking edits the
 * plan"). Each candidate is a smaller plan: fewer servers, audiences, revision steps, tools or
 * fault events, or a calmer setting of one fault. Candidates are listed coarse first, so the
 * shrinker removes big pieces before it tries small ones.
 */
import type { RoundPlan, ServerPlan } from '../plan/types.ts';

/** One named reduction and the plan it yields. */
export interface Reduction {
  name: string;
  plan: RoundPlan;
}

function withServer(plan: RoundPlan, index: number, edit: (server: ServerPlan) => ServerPlan): RoundPlan {
  return { ...plan, servers: plan.servers.map((server, i) => (i === index ? edit(structuredClone(server)) : server)) };
}

/** Every single-step reduction of `plan`, coarse first. */
export function reductionsOf(plan: RoundPlan): Reduction[] {
  const out: Reduction[] = [];
  plan.servers.forEach((server, i) => {
    if (plan.servers.length > 1) out.push({ name: `drop server ${server.id}`, plan: { ...plan, servers: plan.servers.filter((_, j) => j !== i) } });
  });
  plan.servers.forEach((server, i) => out.push(...serverReductions(plan, server, i)));
  out.push(...callReductions(plan));
  if (plan.policy.changes.length > 0) {
    plan.policy.changes.forEach((change, i) => out.push({ name: `drop policy change at ${change.atMs} ms`, plan: { ...plan, policy: { ...plan.policy, changes: plan.policy.changes.filter((_, j) => j !== i) } } }));
  }
  if (plan.policy.pushLossFraction > 0) out.push({ name: 'deliver every policy push', plan: { ...plan, policy: { ...plan.policy, pushLossFraction: 0 } } });
  if (plan.refreshersPerKey > 1) out.push({ name: 'one refresher per key', plan: { ...plan, refreshersPerKey: 1 } });
  return out;
}

function serverReductions(plan: RoundPlan, server: ServerPlan, i: number): Reduction[] {
  const out: Reduction[] = [];
  const id = server.id;
  server.audiences.forEach((audience) => {
    if (server.audiences.length > 1) out.push({ name: `${id}: drop audience ${audience}`, plan: withServer(plan, i, (s) => ({ ...s, audiences: s.audiences.filter((a) => a !== audience) })) });
  });
  server.history.forEach((step, k) => {
    if (k > 0) out.push({ name: `${id}: drop revision step at ${step.atMs} ms (${step.cause})`, plan: withServer(plan, i, (s) => ({ ...s, history: s.history.filter((_, j) => j !== k) })) });
  });
  if (server.cursorTrait !== null) out.push({ name: `${id}: honest cursors`, plan: withServer(plan, i, (s) => ({ ...s, cursorTrait: null })) });
  server.restartsAtMs.forEach((atMs) => out.push({ name: `${id}: no restart at ${atMs} ms`, plan: withServer(plan, i, (s) => ({ ...s, restartsAtMs: s.restartsAtMs.filter((t) => t !== atMs) })) }));
  server.rotations.forEach((rotation) => out.push({ name: `${id}: no rotation at ${rotation.atMs} ms`, plan: withServer(plan, i, (s) => ({ ...s, rotations: s.rotations.filter((r) => r.atMs !== rotation.atMs) })) }));
  if (!isCalm(server)) out.push({ name: `${id}: calm links`, plan: withServer(plan, i, (s) => ({ ...s, linkFaults: { reorder: false, notificationLossFraction: 0, disconnectsAtMs: {} } })) });
  const n = server.notifications;
  if (n.afterPage2 || n.lateByMs > 0 || n.copies > 1 || !n.sendOnChange || !n.declared) {
    out.push({ name: `${id}: healthy notifications`, plan: withServer(plan, i, (s) => ({ ...s, notifications: { declared: true, sendOnChange: true, afterPage2: false, lateByMs: 0, copies: 1 } })) });
  }
  if (server.latencyMsMax > server.latencyMsMin) out.push({ name: `${id}: fixed latency`, plan: withServer(plan, i, (s) => ({ ...s, latencyMsMax: s.latencyMsMin })) });
  if (server.pageSizeMax > server.pageSizeMin) out.push({ name: `${id}: fixed page size`, plan: withServer(plan, i, (s) => ({ ...s, pageSizeMax: s.pageSizeMin })) });
  out.push(...toolReductions(plan, server, i));
  return out;
}

/** Drop one tool name from every view of every step (planted defects go with their tool). */
function toolReductions(plan: RoundPlan, server: ServerPlan, i: number): Reduction[] {
  const names = new Set<string>();
  for (const step of server.history) for (const view of Object.values(step.views)) for (const tool of view) names.add(String(tool.name));
  return [...names].sort().map((name) => ({
    name: `${server.id}: drop tool ${name}`,
    plan: withServer(plan, i, (s) => ({
      ...s,
      history: s.history.map((step) => ({ ...step, views: Object.fromEntries(Object.entries(step.views).map(([a, view]) => [a, view.filter((tool) => tool.name !== name)])) })),
      planted: s.planted.filter((p) => p.descriptor.name !== name),
    })),
  }));
}

function callReductions(plan: RoundPlan): Reduction[] {
  const out: Reduction[] = [];
  const calls = plan.calls;
  if (calls.callFraction > 0) out.push({ name: 'no planned calls', plan: { ...plan, calls: { ...calls, callFraction: 0 } } });
  if (calls.staleFraction > 0) out.push({ name: 'no stale planners', plan: { ...plan, calls: { ...calls, staleFraction: 0 } } });
  if (calls.guessFraction > 0) out.push({ name: 'no guessed names', plan: { ...plan, calls: { ...calls, guessFraction: 0 } } });
  if (calls.invalidArgsFraction > 0) out.push({ name: 'valid arguments only', plan: { ...plan, calls: { ...calls, invalidArgsFraction: 0 } } });
  return out;
}

function isCalm(server: ServerPlan): boolean {
  const faults = server.linkFaults;
  return !faults.reorder && faults.notificationLossFraction === 0 && Object.values(faults.disconnectsAtMs).every((times) => times.length === 0);
}

/** A size measure: smaller is simpler (servers, audiences, steps, tools, fault events). */
export function planSize(plan: RoundPlan): number {
  let size = 0;
  for (const server of plan.servers) {
    size += 100 + 20 * server.audiences.length + 10 * server.history.length + server.restartsAtMs.length + server.rotations.length + (server.cursorTrait === null ? 0 : 1);
    size += new Set(server.history.flatMap((step) => Object.values(step.views).flat().map((tool) => tool.name))).size;
    size += Object.values(server.linkFaults.disconnectsAtMs).flat().length + (isCalm(server) ? 0 : 1);
  }
  return size + plan.policy.changes.length + plan.refreshersPerKey;
}
