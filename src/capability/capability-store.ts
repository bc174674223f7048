/**
 * The store port of the capability registry (SPEC section 9): every record the registry must not
 * lose, written only by {@link CapabilityStore.commit}, one batch per registry operation, all of a
 * batch or none of it (one transaction of a durable implementation). So an alias switch and its
 * audit record, a bundle and its pins, a run and its pins land together or not at all (seed 004:
 * "Alias 发布与回滚要原子").
 *
 * Records are plain JSON; the store copies what it is given and what it returns, so no caller can
 * change what it holds. It reads no clock and draws no randomness: every time comes from the caller
 * (ms, host clock). Implementations: {@link InMemoryCapabilityStore} (tests; everything ends with
 * the process) and `SqliteCapabilityStore` (sqlite-capability-store.ts, on the registry's SQLite
 * database: `SqliteRegistryStore.capabilities()`, what an embedding host should use).
 */
import type { ManifestDiff } from './diff.ts';
import type { ToolManifest } from './manifest.ts';

/** One immutable version of a tool: `toolId` and `version` (1, 2, ... per tool) name one manifest forever. */
export interface ToolVersion {
  toolId: string;
  version: number;
  manifestDigest: string;
  manifest: ToolManifest;
  /** Host clock, ms. */
  registeredAt: number;
  /** The version it was classified against (the tool's newest before it), or null for the first. */
  previousVersion: number | null;
  /** The classified diff from `previousVersion` (SPEC section 9), or null for the first. */
  diffFromPrevious: ManifestDiff | null;
}

/**
 * A deprecation stage (seed 004: "deprecation 包含 announce、no-new-binding、sunset、disabled 四阶段"),
 * `active` before any: `announce` (still bindable; hosts show it), `no-new-binding` (no new bundle
 * or alias may bind it; bundles and runs holding it go on), `sunset` (no new run may start on a
 * bundle pinning it; runs under way go on), `disabled` (every call is refused; it may be removed once
 * nothing references it).
 */
export type DeprecationStage = 'active' | 'announce' | 'no-new-binding' | 'sunset' | 'disabled';

/** Every {@link DeprecationStage}, in the only order a version moves through them. */
export const DEPRECATION_STAGES: readonly DeprecationStage[] = Object.freeze([
  'active',
  'announce',
  'no-new-binding',
  'sunset',
  'disabled',
]);

/** Where a version stands in its lifecycle. Times are host clock, ms. */
export interface LifecycleRecord {
  toolId: string;
  version: number;
  stage: DeprecationStage;
  stageSince: number;
  /** Why the stage was set (the operator's words), or null while `active`. */
  stageReason: string | null;
  /** The version to migrate to, when the operator named one (never applied automatically). */
  replacement: { toolId: string; version: number } | null;
  /** An emergency disable in force (seed 004: "紧急禁用"), or null. */
  emergency: { reason: string; at: number } | null;
  /** When the version was removed, or null while it is kept. */
  removedAt: number | null;
}

/** An alias (`prod:jobs.rerun`) and every target it has had, oldest first; the last is current. */
export interface AliasRecord {
  alias: string;
  toolId: string;
  /** The targets in order; `history.at(-1)` is what the alias names now. */
  history: { version: number; at: number; reason: string; migration: string | null; rollback: boolean }[];
}

/** One exact version a bundle or a run holds, and the reference it was resolved from (`jobs.rerun@latest`). */
export interface Pin {
  toolId: string;
  version: number;
  manifestDigest: string;
  resolvedFrom: string;
}

/** An agent bundle: the exact versions "latest" and aliases resolved to when it was built. */
export interface BundleRecord {
  bundleId: string;
  /** sha256(`catsim.capabilityBundle.v1\n` + JCS({bundleId, pins})), lowercase hex. */
  bundleDigest: string;
  pins: Pin[];
  builtAt: number;
  /** When it was retired (no new run may start on it), or null. */
  retiredAt: number | null;
}

/** A run (a planner's session) and the pins it holds for its whole life, copied from its bundle. */
export interface RunRecord {
  runId: string;
  bundleId: string;
  bundleDigest: string;
  pins: Pin[];
  startedAt: number;
  endedAt: number | null;
}

/**
 * The receipt of one execution (seed 004: "执行审计记录实际 tool version、endpoint build 和 operation
 * ID"): the exact version and schema hashes, and the endpoint and build that ran it.
 */
export interface CapabilityReceipt {
  /** 1, 2, ... in the order executions were recorded. */
  receiptNumber: number;
  runId: string;
  bundleId: string;
  toolId: string;
  version: number;
  manifestDigest: string;
  inputSchemaHash: string;
  outputSchemaHash: string | null;
  errorSchemaHash: string;
  endpoint: { server: string; identity: string; build: string; backup: boolean };
  /** The operation id the server returned, or null when it returned none. */
  operationId: string | null;
  at: number;
}

/** One audited registry operation (seed 004: "alias 变更、审批、灰度范围和观测指标进入发布记录"). */
export interface AuditRecord {
  /** 1, 2, ... in commit order. */
  seq: number;
  at: number;
  action:
    | 'register'
    | 'alias-set'
    | 'alias-rollback'
    | 'bundle-built'
    | 'bundle-retired'
    | 'run-started'
    | 'run-ended'
    | 'deprecation'
    | 'emergency-disable'
    | 'emergency-clear'
    | 'removed';
  /** The tool, alias, bundle or run the operation was about, written as the registry names it. */
  subject: string;
  /** The operator's reason, or what the registry decided (`v3 -> v2`). */
  detail: string;
}

/** One write of a batch: a whole record, replacing the record of the same key. */
export type CapabilityWrite =
  | { kind: 'version'; record: ToolVersion }
  | { kind: 'lifecycle'; record: LifecycleRecord }
  | { kind: 'alias'; record: AliasRecord }
  | { kind: 'bundle'; record: BundleRecord }
  | { kind: 'run'; record: RunRecord }
  | { kind: 'receipt'; record: CapabilityReceipt }
  | { kind: 'audit'; record: AuditRecord };

/** The capability registry's store (see the file header). */
export interface CapabilityStore {
  /**
   * Writes every record of `writes`, in one atomic step (all or none). A `version`, `receipt` or
   * `audit` record is never replaced: writing one whose key exists throws, and nothing is written.
   * @throws Error for an immutable record written twice; a durable store's write error.
   */
  commit(writes: readonly CapabilityWrite[]): void;
  /** Every version of a tool, oldest first. */
  versions(toolId: string): ToolVersion[];
  /** One version, or undefined when the store holds none of that number. */
  version(toolId: string, version: number): ToolVersion | undefined;
  /** The lifecycle of a version, or undefined while nothing was ever recorded for it (`active`). */
  lifecycle(toolId: string, version: number): LifecycleRecord | undefined;
  /** An alias with its history, or undefined. */
  alias(alias: string): AliasRecord | undefined;
  /** Every alias, in the order they were first set. */
  aliases(): AliasRecord[];
  /** A bundle, or undefined. */
  bundle(bundleId: string): BundleRecord | undefined;
  /** Every bundle, in the order they were built. */
  bundles(): BundleRecord[];
  /** A run, or undefined. */
  run(runId: string): RunRecord | undefined;
  /** Every run, in the order they started. */
  runs(): RunRecord[];
  /** Every execution receipt, in order. */
  receipts(): CapabilityReceipt[];
  /** How many execution receipts there are (the last one's number). */
  receiptCount(): number;
  /** Every audit record, in order. */
  audit(): AuditRecord[];
  /** The `seq` of the last audit record, 0 when there is none. */
  lastAuditSeq(): number;
}

/** An in-memory {@link CapabilityStore}: everything ends with the process. */
export class InMemoryCapabilityStore implements CapabilityStore {
  readonly #versions = new Map<string, ToolVersion[]>();
  readonly #lifecycles = new Map<string, LifecycleRecord>();
  readonly #aliases = new Map<string, AliasRecord>();
  readonly #bundles = new Map<string, BundleRecord>();
  readonly #runs = new Map<string, RunRecord>();
  readonly #receipts: CapabilityReceipt[] = [];
  readonly #audit: AuditRecord[] = [];

  commit(writes: readonly CapabilityWrite[]): void {
    // Every check before any write, so a refused batch writes nothing.
    for (const write of writes) this.#checkImmutable(write);
    for (const write of structuredClone(writes)) this.#apply(write);
  }

  #checkImmutable(write: CapabilityWrite): void {
    if (write.kind === 'version' && this.version(write.record.toolId, write.record.version) !== undefined)
      throw new Error(
        `version ${write.record.toolId}@${write.record.version} is already stored (versions are immutable)`,
      );
    if (write.kind === 'receipt' && write.record.receiptNumber !== this.#receipts.length + 1)
      throw new Error(`receipt ${write.record.receiptNumber} is not the next receipt (${this.#receipts.length + 1})`);
    if (write.kind === 'audit' && write.record.seq <= (this.#audit.at(-1)?.seq ?? 0))
      throw new Error(`audit record ${write.record.seq} is not after ${this.#audit.at(-1)?.seq ?? 0}`);
  }

  #apply(write: CapabilityWrite): void {
    switch (write.kind) {
      case 'version': {
        const list = this.#versions.get(write.record.toolId) ?? [];
        list.push(write.record);
        this.#versions.set(write.record.toolId, list);
        return;
      }
      case 'lifecycle':
        this.#lifecycles.set(versionKey(write.record.toolId, write.record.version), write.record);
        return;
      case 'alias':
        this.#aliases.set(write.record.alias, write.record);
        return;
      case 'bundle':
        this.#bundles.set(write.record.bundleId, write.record);
        return;
      case 'run':
        this.#runs.set(write.record.runId, write.record);
        return;
      case 'receipt':
        this.#receipts.push(write.record);
        return;
      case 'audit':
        this.#audit.push(write.record);
        return;
    }
  }

  versions(toolId: string): ToolVersion[] {
    return structuredClone(this.#versions.get(toolId) ?? []);
  }

  version(toolId: string, version: number): ToolVersion | undefined {
    const found = this.#versions.get(toolId)?.find((record) => record.version === version);
    return found === undefined ? undefined : structuredClone(found);
  }

  lifecycle(toolId: string, version: number): LifecycleRecord | undefined {
    const found = this.#lifecycles.get(versionKey(toolId, version));
    return found === undefined ? undefined : structuredClone(found);
  }

  alias(alias: string): AliasRecord | undefined {
    const found = this.#aliases.get(alias);
    return found === undefined ? undefined : structuredClone(found);
  }

  aliases(): AliasRecord[] {
    return structuredClone([...this.#aliases.values()]);
  }

  bundle(bundleId: string): BundleRecord | undefined {
    const found = this.#bundles.get(bundleId);
    return found === undefined ? undefined : structuredClone(found);
  }

  bundles(): BundleRecord[] {
    return structuredClone([...this.#bundles.values()]);
  }

  run(runId: string): RunRecord | undefined {
    const found = this.#runs.get(runId);
    return found === undefined ? undefined : structuredClone(found);
  }

  runs(): RunRecord[] {
    return structuredClone([...this.#runs.values()]);
  }

  receipts(): CapabilityReceipt[] {
    return structuredClone(this.#receipts);
  }

  receiptCount(): number {
    return this.#receipts.length;
  }

  audit(): AuditRecord[] {
    return structuredClone(this.#audit);
  }

  lastAuditSeq(): number {
    return this.#audit.at(-1)?.seq ?? 0;
  }
}

/** The key of one version: `<toolId>@<version>`. */
export function versionKey(toolId: string, version: number): string {
  return `${toolId}@${version}`;
}
