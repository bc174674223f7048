/**
 * The tool-version mutants (SPEC section 9, issue 30): a host whose versions follow a tool's claim
 * rather than its content, one that passes on results that break the version's output schema, one
 * whose runs follow an alias, and the capability store of one whose usage graph sees nothing.
 */
import type { CallRequest, GateDecision } from '../../src/admission/gate.ts';
import type { SignedLease } from '../../src/admission/lease.ts';
import { CatalogHost, type CallResult, type ReceiptVersion } from '../../src/host.ts';
import type { OutputVerdict } from '../../src/validation/output-validator.ts';
import type { CapabilityStore } from '../../src/capability/capability-store.ts';

/**
 * Versions by claim: the host names each tool by the first version it gave it for the rest of the
 * process, as a registry that keys versions on the tool id and the server's claim (name, build)
 * would: a changed description (F32) or schema keeps the old version, so one version names two
 * definitions (I35 `ONE_VERSION_TWO_DEFINITIONS`).
 */
export class VersionByClaimHost extends CatalogHost {
  readonly #first = new Map<string, ReceiptVersion>();

  protected override emitReceipt(
    request: CallRequest,
    decision: GateDecision,
    lease: SignedLease,
    version?: ReceiptVersion | null,
  ): void {
    if (version === undefined || version === null) {
      super.emitReceipt(request, decision, lease, version);
      return;
    }
    const first = this.#first.get(version.toolId) ?? version;
    this.#first.set(version.toolId, first);
    super.emitReceipt(request, decision, lease, first);
  }
}

/**
 * Alias follows latest: the host resolves a tool's production alias again at each call and runs
 * (and names in its receipt) whatever the alias names then, instead of the version its run pinned
 * when it started: a flip or rollback (F34) mid-run changes the definition a run's calls bind
 * (I37 `DEFINITION_CHANGED_MID_RUN`), as a registry that resolves `prod:jobs.rerun` per call would.
 */
export class AliasFollowsLatestHost extends CatalogHost {
  protected override emitReceipt(
    request: CallRequest,
    decision: GateDecision,
    lease: SignedLease,
    version?: ReceiptVersion | null,
  ): void {
    const latest =
      version === undefined || version === null
        ? undefined
        : this.capabilities?.aliasTargetOf(version.toolId, request.plan.descriptorDigest);
    super.emitReceipt(
      request,
      decision,
      lease,
      latest === undefined
        ? version
        : { toolId: latest.toolId, version: latest.version, manifestDigest: latest.manifestDigest },
    );
  }
}

/**
 * Output unchecked: the host takes every result's `structuredContent` as valid, as a client that
 * reads `structuredContent` without validating it would (the SDK's `Client.callTool` validates,
 * the low-level `request` does not): a result that breaks its output schema (F33) is passed on as
 * a valid one, `receipt_outcome.output` `conforms` (I36 `INVALID_RESULT_PASSED`).
 */
export class OutputUncheckedHost extends CatalogHost {
  protected override validateOutput(): OutputVerdict {
    return { ok: true };
  }
}

/**
 * Usage-blind: the capability store of a host whose usage graph is built from nothing (no bundle,
 * no run), as a registry that looks only at aliases and "no call for a while" would: a removal
 * (F35) of a disabled version is taken while runs still pin it (seed 004: "不能仅凭'一个月没有新调用'
 * 删除"), and their later calls are refused as gone (I38 `REMOVED_WHILE_REFERENCED`,
 * `REFERENCED_VERSION_VANISHED`). Everything else reads and writes `store` itself.
 */
export function usageBlindStore(store: CapabilityStore): CapabilityStore {
  return {
    commit: (writes) => store.commit(writes),
    versions: (toolId) => store.versions(toolId),
    version: (toolId, version) => store.version(toolId, version),
    lifecycle: (toolId, version) => store.lifecycle(toolId, version),
    alias: (alias) => store.alias(alias),
    aliases: () => store.aliases(),
    bundle: (bundleId) => store.bundle(bundleId),
    bundles: () => [],
    run: (runId) => store.run(runId),
    runs: () => [],
    receipts: () => store.receipts(),
    receiptCount: () => store.receiptCount(),
    audit: () => store.audit(),
    lastAuditSeq: () => store.lastAuditSeq(),
  };
}

/**
 * The `_meta` key under which a server claims a tool's version as a semver string (the one F36's
 * servers use, sim/faults/f36-disguised-breaking-change.ts; MCP itself carries no tool version).
 */
const TOOL_VERSION_KEY = 'dev.catsim/toolVersion';

/** The version a descriptor claims in its `_meta`, or undefined. */
function claimOf(descriptor: unknown): string | undefined {
  const meta = (descriptor as { _meta?: Record<string, unknown> } | null)?._meta;
  const claim = meta?.[TOOL_VERSION_KEY];
  return typeof claim === 'string' ? claim : undefined;
}

/** Whether `after` is, by its semver claim alone, a compatible release of `before`: the same major, not older. */
function claimsCompatible(before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return false;
  const [a, b] = [before.split('.').map(Number), after.split('.').map(Number)];
  if (a[0] !== b[0]) return false;
  for (let part = 1; part < 3; part += 1) if ((b[part] ?? 0) !== (a[part] ?? 0)) return (b[part] ?? 0) > (a[part] ?? 0);
  return true;
}

/**
 * Trust the semver claim: the host classifies a changed tool by the version string the server
 * claims rather than by the contract. When a run's pinned descriptor is no longer the one its
 * active generation lists, the new one claims a minor or patch release of the old (the same
 * major), and the session has been shown the new one, the host takes the change as compatible and
 * rebinds the run's call to the new descriptor instead of refusing it as drift: a breaking change
 * disguised as compatible (F36) is executed for a run that pinned the old contract (I39
 * `BREAKING_CONTRACT_EXECUTED`). Everything the host writes is consistent with the descriptor it
 * rebound to, so no other invariant sees it.
 */
export class TrustSemverClaimHost extends CatalogHost {
  override call(request: CallRequest): Promise<CallResult> {
    return super.call(this.#rebound(request));
  }

  #rebound(request: CallRequest): CallRequest {
    const { plan } = request;
    const now = this.registry.active(plan.key)?.snapshot.tools.find((tool) => tool.name === plan.toolName);
    if (now === undefined || now.descriptorDigest === plan.descriptorDigest) return request;
    const pinned = this.registry
      .generation(plan.key, plan.generation)
      ?.snapshot.tools.find((tool) => tool.descriptorDigest === plan.descriptorDigest);
    if (pinned === undefined || !claimsCompatible(claimOf(pinned.source), claimOf(now.source))) return request;
    const shown = this.disclosures.lookup(request.session, plan.key, plan.toolName, now.descriptorDigest);
    if (shown === undefined) return request;
    const { generation, snapshotDigest, descriptorDigest } = shown;
    return { ...request, plan: { ...plan, generation, snapshotDigest, descriptorDigest } };
  }
}

/**
 * Fails over to any backup (F37): the host's contract check of a backup is gone, so an offer
 * names the descriptor the call's run pinned whatever the backup lists, and the registry admits
 * the first backup, serving another contract or not. A backup serving another contract then
 * executes a run's call against a descriptor it never pinned (I40 `BACKUP_CONTRACT_EXECUTED`,
 * from the world's `call_executed`). The host's own receipt names the pinned descriptor and the
 * call was disclosed and leased as usual, so nothing else sees it.
 */
export class BackupAnyContractHost extends CatalogHost {
  protected override backupContract(_listed: string, request: CallRequest): string {
    return request.plan.descriptorDigest;
  }
}
