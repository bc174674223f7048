/**
 * The tool-version mutants (SPEC section 9, issue 30): a host whose versions follow a tool's claim
 * rather than its content, one that passes on results that break the version's output schema, one
 * whose runs follow an alias, and the capability store of one whose usage graph sees nothing.
 */
import type { CallRequest, GateDecision } from '../../src/admission/gate.ts';
import type { SignedLease } from '../../src/admission/lease.ts';
import { CatalogHost, type ReceiptVersion } from '../../src/host.ts';
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
