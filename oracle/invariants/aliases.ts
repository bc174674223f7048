/**
 * I37, no run sees a definition change mid-run, and an alias flip binds only later runs (SPEC
 * section 9; seed 004: "一次 Run 固定 exact tool versions ... 否则用户确认 v2 计划，执行时工具已变 v3，
 * plan hash 失去意义"; "旧版本保留兼容窗口，运行中的 Run 继续使用"; "回滚 alias ... Registry 只恢复后续
 * 调用"). A run is a session's calls from one disclosed generation: the receipts whose gate
 * decision names the session and whose `disclosure` names the generation, under one catalog key;
 * it starts at the world's first `disclosure` of that generation to that session. For every tool
 * of a server whose production alias the world ordered (`alias_ordered`, delivered, F34):
 *
 * - every receipt of one run for that tool binds one definition: the same (version, manifest
 *   digest) as the run's first (`DEFINITION_CHANGED_MID_RUN`, anchored at the receipt that
 *   differs);
 * - every run binds the target the alias had when it started, for the contract the alias names,
 *   and the release the operator's file gives (release 0) for any other contract or before any
 *   order: runs started under the same target bind one manifest digest, and runs started under
 *   release 1 of a contract bind another than those under its release 0
 *   (`ALIAS_TARGET_NOT_BOUND`, anchored at the first receipt of the run that binds otherwise);
 * - in particular a `set` of a `breaking` change without `migration` leaves the alias where it
 *   was, so a run started after it that binds anything else is `BREAKING_BOUND_WITHOUT_MIGRATION`.
 *
 * The alias's target after each order is modelled from the world alone: a delivered `set` of a
 * contract the world disclosed to some session before it (a core can only release a definition it
 * has seen) moves it, unless it is a breaking change without migration from a current target; a
 * delivered `rollback` moves it back to the target before the current one, when there is one.
 * The second and third rules are not judged for a tool whose alias named two contracts (the
 * class of the change then depends on the descriptors, which the world did not classify), or that
 * an operator deprecated or emergency-disabled in the round (a version that may not be bound
 * cannot become a target). Orders written `unsupported` or `host_down` move nothing; a core that
 * names no version in its receipts is not judged. One work count per delivered order.
 */
import { parseCatalogKey } from '../catalog-key.ts';
import type { AliasOrderedEvent, ReceiptEvent } from '../trace.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** What an alias names: a release of one contract. */
interface Target {
  release: number;
  descriptorDigest: string;
}

/** The alias's target from `seq` on, and the refused breaking `set` that left it there, if the last order was one. */
interface Epoch {
  seq: number;
  target: Target | null;
  refusedBreaking: AliasOrderedEvent | null;
}

/** A run's receipts of one tool, in trace order, and when it started (its first disclosure's seq). */
interface Run {
  label: string;
  startSeq: number;
  receipts: ReceiptEvent[];
}

/** I37: runs keep the definition they bound; alias flips bind later runs only. */
export function checkAliases(context: CheckContext, findings: Findings): void {
  const orders = context.truth.aliasOrders.filter((order) => order.delivery === 'delivered');
  if (orders.length === 0) return;
  const serverOf = identityServers(context);
  for (const [tool, ofTool] of groupBy(orders, (order) => `${order.server}\u0000${order.tool}`)) {
    for (let order = 0; order < ofTool.length; order += 1) findings.count('I37');
    const [server = '', name = ''] = tool.split('\u0000');
    const runs = runsOf(context, server, name, serverOf);
    for (const run of runs) judgeRun(run, findings);
    if (targetsJudged(context, server, name, ofTool)) judgeTargets(runs, epochsOf(context, server, ofTool), findings);
  }
}

/** The server of every identity an operator's manifest file or an alias order names. */
function identityServers(context: CheckContext): Map<string, string> {
  const servers = new Map<string, string>();
  for (const event of context.truth.operatorManifests)
    for (const identity of event.identities) servers.set(identity, event.server);
  for (const order of context.truth.aliasOrders) servers.set(order.identity, order.server);
  return servers;
}

/** The runs with receipts naming a version of `tool` of `server`, in order of their first receipt. */
function runsOf(context: CheckContext, server: string, tool: string, serverOf: Map<string, string>): Run[] {
  const starts = new Map<string, number>();
  for (const disclosure of context.truth.disclosures) {
    const label = `${disclosure.session} ${disclosure.key}#${disclosure.generation}`;
    if (!starts.has(label)) starts.set(label, disclosure.seq);
  }
  const runs = new Map<string, Run>();
  for (const receipt of context.observed.receipts) {
    if (receipt.tool !== tool || receipt.version === undefined || receipt.version === null) continue;
    if (receipt.disclosure === null || serverOf.get(parseCatalogKey(receipt.key).identity) !== server) continue;
    const session = context.observed.decisionByCallId.get(receipt.callId)?.session;
    if (session === undefined) continue;
    const label = `${session} ${receipt.key}#${receipt.disclosure.generation}`;
    const startSeq = starts.get(label);
    if (startSeq === undefined) continue;
    let run = runs.get(label);
    if (run === undefined) runs.set(label, (run = { label, startSeq, receipts: [] }));
    run.receipts.push(receipt);
  }
  return [...runs.values()];
}

/** The first rule: one definition per run. */
function judgeRun(run: Run, findings: Findings): void {
  const [first, ...later] = run.receipts;
  if (first === undefined) return;
  for (const receipt of later) {
    if (definitionOf(receipt) === definitionOf(first)) continue;
    findings.add(
      'I37',
      receipt.seq,
      'DEFINITION_CHANGED_MID_RUN',
      `receipt ${receipt.leaseId} (seq ${receipt.seq}) of run ${run.label} binds ${versionText(receipt)}; the run's first receipt ${first.leaseId} (seq ${first.seq}) bound ${versionText(first)}`,
    );
  }
}

/** Whether the targets are judged for this tool: one contract named, and no deprecation or emergency disable of it. */
function targetsJudged(context: CheckContext, server: string, tool: string, orders: AliasOrderedEvent[]): boolean {
  const contracts = new Set(orders.flatMap((order) => (order.action === 'set' ? [order.descriptorDigest] : [])));
  if (contracts.size > 1) return false;
  const named = (event: { server: string; tool: string; delivery: string }) =>
    event.server === server && event.tool === tool && event.delivery === 'delivered';
  return !context.truth.deprecations.some(named) && !context.truth.emergencyDisables.some(named);
}

/** The alias's target after each delivered order, modelled from the world alone (see the header). */
function epochsOf(context: CheckContext, server: string, orders: AliasOrderedEvent[]): Epoch[] {
  const history: Target[] = [];
  const epochs: Epoch[] = [];
  for (const order of orders) {
    let refusedBreaking: AliasOrderedEvent | null = null;
    if (order.action === 'rollback') {
      const before = history.at(-2);
      if (before !== undefined) history.push(before);
    } else if (order.descriptorDigest !== null && disclosedBefore(context, server, order.descriptorDigest, order.seq)) {
      const breaking = order.change === 'breaking' && !order.migration && history.length > 0;
      if (breaking) refusedBreaking = order;
      else history.push({ release: order.release ?? 0, descriptorDigest: order.descriptorDigest });
    }
    epochs.push({ seq: order.seq, target: history.at(-1) ?? null, refusedBreaking });
  }
  return epochs;
}

/** Whether the world disclosed the contract `descriptorDigest` of `server` to a session before `seq`. */
function disclosedBefore(context: CheckContext, server: string, descriptorDigest: string, seq: number): boolean {
  return context.truth.disclosures.some(
    (disclosure) => disclosure.seq < seq && disclosure.server === server && disclosure.tools.includes(descriptorDigest),
  );
}

/** The second and third rules: each run binds the target it started under; release 1 is another definition than release 0. */
function judgeTargets(runs: Run[], epochs: Epoch[], findings: Findings): void {
  const bound = new Map<string, ReceiptEvent>();
  for (const run of runs) {
    const first = run.receipts[0];
    if (first === undefined || typeof first.descriptorDigest !== 'string') continue;
    const epoch = epochs.findLast((candidate) => candidate.seq < run.startSeq);
    const target = epoch?.target ?? null;
    const release = target !== null && target.descriptorDigest === first.descriptorDigest ? target.release : 0;
    const label = `${release}/${first.descriptorDigest}`;
    const earlier = bound.get(label);
    if (earlier === undefined) {
      bound.set(label, first);
      continue;
    }
    if (earlier.version?.manifestDigest === first.version?.manifestDigest) continue;
    const breaking = epoch?.refusedBreaking ?? null;
    findings.add(
      'I37',
      first.seq,
      breaking === null ? 'ALIAS_TARGET_NOT_BOUND' : 'BREAKING_BOUND_WITHOUT_MIGRATION',
      `run ${run.label}, started at seq ${run.startSeq}${breaking === null ? '' : ` after the breaking alias set at seq ${breaking.seq} without a migration`}, binds ${versionText(first)} (receipt ${first.leaseId}, seq ${first.seq}); release ${release} of that contract was bound as ${versionText(earlier)} (receipt ${earlier.leaseId}, seq ${earlier.seq})`,
    );
  }
  for (const [label, receipt] of bound) {
    if (!label.startsWith('1/')) continue;
    const base = bound.get(`0/${label.slice(2)}`);
    if (base === undefined || base.version?.manifestDigest !== receipt.version?.manifestDigest) continue;
    findings.add(
      'I37',
      receipt.seq,
      'ALIAS_TARGET_NOT_BOUND',
      `receipt ${receipt.leaseId} (seq ${receipt.seq}), the first of a run started under release 1 of the alias, binds ${versionText(receipt)}, the definition the first receipt of a run started under release 0 bound (receipt ${base.leaseId}, seq ${base.seq}): two releases, one definition (the flip was not bound, or a run under release 0 bound release 1)`,
    );
  }
}

function definitionOf(receipt: ReceiptEvent): string {
  return `${receipt.version?.toolId}@${receipt.version?.version}/${receipt.version?.manifestDigest}`;
}

function versionText(receipt: ReceiptEvent): string {
  const version = receipt.version;
  return version === undefined || version === null
    ? 'no version'
    : `${version.toolId} v${version.version} (manifest ${version.manifestDigest.slice(0, 12)})`;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}
