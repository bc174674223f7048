/**
 * Mutants of the rollback path (F19, seed 001's rollout rule): each is the reference core with
 * one defence of `CatalogHost.rollback` removed.
 */
import { AdmissionGate, type CallRequest } from '../../src/admission/gate.ts';
import type { CatalogKey } from '../../src/keys.ts';
import { CatalogRegistry, type PublishGuards, type ServeResult } from '../../src/registry/registry.ts';
import type { GenerationRecord } from '../../src/registry/store.ts';

/**
 * `rollback-to-stale`: any earlier generation qualifies for a rollback, expired or discovered
 * under a policy epoch, identity or trust configuration that no longer holds (the latest earlier
 * one not judged bad is republished). Caught by I21.
 */
export class RollbackToStaleRegistry extends CatalogRegistry {
  protected override rollbackQualifies(_candidate: GenerationRecord, _guards: PublishGuards): boolean {
    return true;
  }
}

/**
 * `rollback-keeps-leasing`: after a rollback the gate keeps admitting (and leasing) against the
 * generation the rollback rolled away, the one just below the active rollback publish. Caught by I28.
 */
export class RollbackKeepsLeasingGate extends AdmissionGate {
  protected override generationFor(key: CatalogKey, request: CallRequest): ServeResult {
    const served = super.generationFor(key, request);
    if (!served.ok || served.record.rolledBackFrom === null) return served;
    const away = this.deps.registry.generation(key, served.record.catalogGeneration - 1);
    return away === undefined ? served : { ok: true, record: away };
  }
}

/**
 * `disable-not-enforced`: a rollback that finds no qualifying generation still marks the key
 * DISABLED and reports `server_disabled`, but nothing reads the mark: the registry serves, the gate
 * admits and leases, and calls leave for the key's server against the generation the trigger judged
 * bad, until a new publish. Caught by I29 CALL_WHILE_DISABLED, from the world's `call_sent`.
 */
export class DisableNotEnforcedRegistry extends CatalogRegistry {
  override isDisabled(_key: CatalogKey): boolean {
    return false;
  }
}
