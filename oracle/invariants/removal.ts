/**
 * I38, no removal while referenced and no call after `disabled` (SPEC section 9; seed 004: "下线工具
 * 版本前，Registry 从 Run traces 与 Bundle manifests 构建使用图：哪些线上 Agent ... 和未完成 Runs 仍引用。
 * 不能仅凭'一个月没有新调用'删除，因为长流程可能仍在等待确认"; "deprecation 包含 announce、no-new-binding、
 * sunset、disabled 四阶段"). An operator walks the versions of tool `tool` of server `server` (the
 * descriptor digests it listed when the walk began) to `announce`, to `sunset`, to `disabled`, then
 * orders their removal (`lifecycle_ordered`, F35). A run is a session's calls from one disclosed generation,
 * as I37 models it; sessions never end in a round, so a run never ends.
 *
 * A run references one of the walk's versions when the world disclosed its generation to its
 * session, under a catalog key of the identity the order named, listing that digest, before the
 * first delivered order that made the version unbindable: the walk's first delivered order past
 * `announce` (an announced version stays bindable), an F31 `deprecation_ordered` naming the
 * digest, or an F26 `emergency_disabled` of the tool (all of the same server). Such a run pinned the version in any core that binds what a generation lists
 * while it may be bound, and it is still live. Rules, for delivered orders only:
 *
 * - a removal the core answered `removed` while a run references one of its versions is
 *   `REMOVED_WHILE_REFERENCED` (anchored at the order);
 * - after a removal order, whatever its answer, no call of such a run may be refused as gone: a
 *   `gate_decision` `VERSION_GONE` whose plan (`plan_made`) names such a run and version is
 *   `REFERENCED_VERSION_VANISHED` (anchored at the first, with how many);
 * - after a `disabled` order, no call of one of its versions may leave the core: a `receipt` after
 *   it for that tool, under a key of the order's identity, naming one of its digests is
 *   `EXECUTED_AFTER_DISABLED` (anchored at the first, with how many). Calls that left before may
 *   finish;
 * - after an `announce` order, and until the first delivered order that makes the version
 *   unbindable (as above), nothing about its lifecycle may refuse a call of it: a `gate_decision`
 *   for the tool, under a key of the order's identity, whose plan names one of its digests,
 *   refused with a lifecycle code (`TOOL_NOT_PINNED`: the run's bundle left the version out;
 *   `VERSION_SUNSET`, `VERSION_DISABLED`, `VERSION_GONE`) is `ANNOUNCED_VERSION_REFUSED` (anchored
 *   at the first, with how many): an announced version is still bound by new bundles and runs, and
 *   called (seed 004's four stages; `announce` is the notice, `no-new-binding` the first refusal).
 *
 * Ground truth: the orders, disclosures and plans are the world's; the answer is the core's, as
 * the world wrote it; receipts and decisions are the core's, and what each binds is held to the
 * world elsewhere (I3, I6, I9). Orders written `unsupported` or `host_down` are not judged (the
 * first makes the round NOT JUDGED on `lifecycle`, oracle/not-judged.ts). One work count per
 * delivered order that names a version.
 */
import { parseCatalogKey } from '../catalog-key.ts';
import { planRef } from '../internal/plan-ref.ts';
import type { LifecycleOrderedEvent } from '../trace.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** A run the world knows references a version: `<session> <key>#<generation>`, with the digests it was shown. */
interface ReferencingRun {
  label: string;
  session: string;
  key: string;
  generation: number;
  digests: Set<string>;
}

/** I38: nothing referenced is removed, nothing disabled runs. */
export function checkRemoval(context: CheckContext, findings: Findings): void {
  const orders = context.truth.lifecycleOrders.filter(
    (order) => order.delivery === 'delivered' && order.descriptorDigests.length > 0,
  );
  for (const order of orders) {
    findings.count('I38');
    if (order.step === 'announce') judgeAnnounced(context, order, findings);
    if (order.step === 'disabled') judgeDisabled(context, order, findings);
    if (order.step !== 'remove') continue;
    const runs = referencingRuns(context, order);
    if (order.answer === 'removed' && runs.length > 0) {
      const first = runs[0] as ReferencingRun;
      findings.add(
        'I38',
        order.seq,
        'REMOVED_WHILE_REFERENCED',
        `the core answered the removal of ${JSON.stringify(order.tool)} of ${order.server} (${order.descriptorDigests.length} version${order.descriptorDigests.length === 1 ? '' : 's'}, seq ${order.seq}, t=${order.t} ms) removed while ${runs.length} live run${runs.length === 1 ? '' : 's'} referenced one, e.g. run ${first.label}, shown ${[...first.digests].map((digest) => digest.slice(0, 12)).join(', ')} before the walk began`,
      );
    }
    judgeVanished(context, order, runs, findings);
  }
}

/** The runs the world knows reference a version of `order`'s walk (see the header), in order of their first disclosure. */
function referencingRuns(context: CheckContext, order: LifecycleOrderedEvent): ReferencingRun[] {
  const runs = new Map<string, ReferencingRun>();
  for (const disclosure of context.truth.disclosures) {
    if (disclosure.server !== order.server || parseCatalogKey(disclosure.key).identity !== order.identity) continue;
    for (const digest of disclosure.tools) {
      if (!order.descriptorDigests.includes(digest) || disclosure.seq >= unbindableFrom(context, order, digest))
        continue;
      const label = `${disclosure.session} ${disclosure.key}#${disclosure.generation}`;
      let run = runs.get(label);
      if (run === undefined)
        runs.set(
          label,
          (run = {
            label,
            session: disclosure.session,
            key: disclosure.key,
            generation: disclosure.generation,
            digests: new Set(),
          }),
        );
      run.digests.add(digest);
    }
  }
  return [...runs.values()];
}

/** The seq of the first delivered order that made the version with `digest` of the walk's tool unbindable. */
function unbindableFrom(context: CheckContext, order: LifecycleOrderedEvent, digest: string): number {
  return Math.min(order.seq, unbindingOrderSeq(context, order, digest));
}

/**
 * The seq of the first delivered order of the walk's server, past `announce`, that makes the
 * version with `digest` of its tool unbindable (a walk's order, an F31 deprecation, an F26
 * emergency disable of the tool); Infinity when there is none.
 */
function unbindingOrderSeq(context: CheckContext, order: LifecycleOrderedEvent, digest: string): number {
  const { truth } = context;
  const delivered = (event: { server: string; delivery: string }) =>
    event.server === order.server && event.delivery === 'delivered';
  const seqs = [
    ...truth.lifecycleOrders.filter(
      (event) =>
        delivered(event) &&
        event.step !== 'announce' &&
        event.tool === order.tool &&
        event.descriptorDigests.includes(digest),
    ),
    ...truth.deprecations.filter(
      (event) => delivered(event) && event.tool === order.tool && event.descriptorDigests.includes(digest),
    ),
    ...truth.emergencyDisables.filter((event) => delivered(event) && event.tool === order.tool),
  ].map((event) => event.seq);
  return Math.min(Number.POSITIVE_INFINITY, ...seqs);
}

/** The second rule: no call of a referencing run refused as gone after the removal order. */
function judgeVanished(
  context: CheckContext,
  order: LifecycleOrderedEvent,
  runs: readonly ReferencingRun[],
  findings: Findings,
): void {
  const byLabel = new Map(runs.map((run) => [run.label, run]));
  const gone = context.observed.gateDecisions.filter((decision) => {
    if (decision.seq < order.seq || decision.decision !== 'VERSION_GONE' || decision.tool !== order.tool) return false;
    const plan = context.truth.plans.get(planRef(decision.session, decision.planId));
    if (plan === undefined) return false;
    const run = byLabel.get(`${plan.session} ${plan.key}#${plan.generation}`);
    return run?.digests.has(plan.descriptorDigest) === true;
  });
  const first = gone[0];
  if (first === undefined) return;
  findings.add(
    'I38',
    first.seq,
    'REFERENCED_VERSION_VANISHED',
    `${gone.length} call${gone.length === 1 ? '' : 's'} of ${JSON.stringify(order.tool)} from runs that pinned it before the walk began ${gone.length === 1 ? 'was' : 'were'} refused VERSION_GONE after the removal order (seq ${order.seq}, t=${order.t} ms, answered ${order.answer}${order.code === null ? '' : ` ${order.code}`}), the first call ${first.callId} at seq ${first.seq} (session ${first.session}): the version vanished under a live run`,
  );
}

/** The third rule: no receipt of a disabled version after the order. */
function judgeDisabled(context: CheckContext, order: LifecycleOrderedEvent, findings: Findings): void {
  const executed = context.observed.receipts.filter(
    (receipt) =>
      receipt.seq > order.seq &&
      receipt.tool === order.tool &&
      typeof receipt.descriptorDigest === 'string' &&
      order.descriptorDigests.includes(receipt.descriptorDigest) &&
      parseCatalogKey(receipt.key).identity === order.identity,
  );
  const first = executed[0];
  if (first === undefined) return;
  findings.add(
    'I38',
    first.seq,
    'EXECUTED_AFTER_DISABLED',
    `${executed.length} call${executed.length === 1 ? '' : 's'} of ${JSON.stringify(order.tool)} of ${order.server} left the core after its versions were disabled (seq ${order.seq}, t=${order.t} ms), the first with receipt ${first.leaseId} at seq ${first.seq} (t=${first.t} ms, ${first.key})`,
  );
}

/** The codes a core refuses a call with for the lifecycle of the version its run pinned (or left out). */
const LIFECYCLE_REFUSALS: ReadonlySet<string> = new Set([
  'TOOL_NOT_PINNED',
  'VERSION_SUNSET',
  'VERSION_DISABLED',
  'VERSION_GONE',
]);

/** The fourth rule: nothing about an announced version's lifecycle refuses a call of it before it is unbindable. */
function judgeAnnounced(context: CheckContext, order: LifecycleOrderedEvent, findings: Findings): void {
  const refused = context.observed.gateDecisions.filter((decision) => {
    if (decision.seq < order.seq || decision.tool !== order.tool || !LIFECYCLE_REFUSALS.has(decision.decision))
      return false;
    if (parseCatalogKey(decision.key).identity !== order.identity) return false;
    const digest = context.truth.plans.get(planRef(decision.session, decision.planId))?.descriptorDigest;
    if (digest === undefined || !order.descriptorDigests.includes(digest)) return false;
    return decision.seq < unbindingOrderSeq(context, order, digest);
  });
  const first = refused[0];
  if (first === undefined) return;
  findings.add(
    'I38',
    first.seq,
    'ANNOUNCED_VERSION_REFUSED',
    `${refused.length} call${refused.length === 1 ? '' : 's'} of ${JSON.stringify(order.tool)} of ${order.server} ${refused.length === 1 ? 'was' : 'were'} refused for the lifecycle of a version the operator had only announced (seq ${order.seq}, t=${order.t} ms) and nothing had made unbindable yet, the first ${first.callId} ${first.decision} at seq ${first.seq} (session ${first.session}): an announced version is still bound and called`,
  );
}
