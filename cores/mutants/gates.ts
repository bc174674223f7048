/**
 * Mutant admission gates: the reference gate with exactly one defence removed (SPEC section 12).
 */
import { AdmissionGate, type CallRequest, type GateDecision } from '../../src/admission/gate.ts';
import type { DisclosureEntry } from '../../src/admission/disclosure-ledger.ts';
import type { CatalogKey } from '../../src/keys.ts';
import type { ServeResult } from '../../src/registry/registry.ts';
import type { GenerationRecord } from '../../src/registry/store.ts';
import type { SnapshotTool } from '../../src/snapshot/snapshot.ts';
import type { EffectClass } from '../../src/validation/trust.ts';

/** Unversioned write admission: a non-READ tool of an unversioned source needs no confirmation. */
export class UnversionedWriteGate extends AdmissionGate {
  protected override mayWriteUnversioned(): boolean {
    return true;
  }
}

/** Trusting readOnlyHint: the effect class comes from the server's annotations. */
export class TrustReadOnlyHintGate extends AdmissionGate {
  protected override effectClass(request: CallRequest, tool: SnapshotTool): EffectClass {
    return tool.annotations?.readOnlyHint === true ? 'READ' : super.effectClass(request, tool);
  }
}

/** No re-check at call: the gate trusts the plan's generation instead of the active one. */
export class TrustPlanGenerationGate extends AdmissionGate {
  protected override generationFor(key: CatalogKey, request: CallRequest): ServeResult {
    const planned = this.deps.registry.generation(key, request.plan.generation);
    return planned === undefined ? super.generationFor(key, request) : { ok: true, record: planned };
  }
}

/** Undisclosed calls forwarded: a tool never shown to the session may be called. */
export class ForwardUndisclosedGate extends AdmissionGate {
  protected override wasDisclosed(): boolean {
    return true;
  }
}

/**
 * Revocation only on refresh: the audience's grants are read once per generation, at the first
 * call checked against it, so a revocation takes effect only when a refresh publishes a new
 * generation (caught when the scenario's refresh interval exceeds the revocation bound B).
 */
export class RevocationOnRefreshGate extends AdmissionGate {
  readonly #grants = new Map<string, ReadonlySet<string>>();

  protected override holdsGrant(request: CallRequest, record: GenerationRecord): boolean {
    const key = `${record.key}#${record.catalogGeneration}`;
    let held = this.#grants.get(key);
    if (held === undefined) {
      held = new Set(
        record.snapshot.tools.map((tool) => tool.name).filter((name) => this.deps.policy.holds(request.audience, name)),
      );
      this.#grants.set(key, held);
    }
    return held.has(request.plan.toolName);
  }
}

/**
 * Snapshot-wide drift: the gate refuses a call as drift (`STALE_CATALOG`) when any tool of the
 * generation its run pinned is listed now with another descriptor, not only the called tool, as a
 * host that pins a run to the digest of the server's whole `tools/list` would. A run that pinned a
 * tool's new contract is refused once the server changes another tool beside it (F36's compatible
 * control after its breaking change, or the other way round), though the contract it pinned is
 * still listed and served (I39 `PINNED_CONTRACT_REFUSED`). A run pinned to the active generation,
 * a quiet tail's probe among them, is never refused for it, so I12 does not see it.
 */
export class SnapshotWideDriftGate extends AdmissionGate {
  protected override callChecks(
    request: CallRequest,
    record: GenerationRecord,
    tool: SnapshotTool | undefined,
    disclosure: DisclosureEntry | undefined,
  ): Pick<GateDecision, 'verdict' | 'argumentErrors'> {
    const checks = super.callChecks(request, record, tool, disclosure);
    if (checks.verdict !== 'ADMIT') return checks;
    const key: CatalogKey = { identity: request.identity, ...request.audience };
    const pinned = this.deps.registry.generation(key, request.plan.generation);
    return pinned !== undefined && anyToolChanged(pinned, record) ? { verdict: 'STALE_CATALOG' } : checks;
  }
}

/**
 * Whether a tool `pinned` lists is listed by `active` under its name, but never with its
 * descriptor (a snapshot may list two tools of one name, so names alone do not say which changed).
 */
function anyToolChanged(pinned: GenerationRecord, active: GenerationRecord): boolean {
  const now = new Map<string, Set<string>>();
  for (const tool of active.snapshot.tools)
    now.set(tool.name, (now.get(tool.name) ?? new Set()).add(tool.descriptorDigest));
  return pinned.snapshot.tools.some((tool) => now.get(tool.name)?.has(tool.descriptorDigest) === false);
}

/** Refuses everything: every call gets SERVER_DISABLED. */
export class RefuseEverythingGate extends AdmissionGate {
  override decide(request: CallRequest): GateDecision {
    return { ...super.decide(request), verdict: 'SERVER_DISABLED' };
  }
}
