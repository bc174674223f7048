/**
 * The admission gate (SPEC section 7): one synchronous decision per `tools/call`, taken against
 * the state at that instant (the caller's catalog key, its active generation, the policy epoch,
 * the session's disclosures), returning the first failing code in the order of
 * {@link REFUSAL_ORDER}, or ADMIT.
 *
 * The gate judges the caller's catalog key, (`request.identity`, `request.audience`): the plan
 * must name that same key (identity checked under SERVER_DISABLED, tenant and role under
 * TENANT_MISMATCH), and its descriptor digest must be the active generation's for the name. A
 * generation stays usable across policy-epoch moves: grants are checked at the current epoch on
 * every call (SPEC section 6).
 *
 * The gate issues nothing and sends nothing: the host issues the lease and sends the call on
 * ADMIT (`CatalogHost.call`), so `decide` can also be measured alone.
 */
import { type AudienceClass, type CatalogKey } from '../keys.ts';
import type { CatalogRegistry, ServeResult } from '../registry/registry.ts';
import type { GenerationRecord } from '../registry/store.ts';
import type { SnapshotTool, ToolCatalogSnapshot } from '../snapshot/snapshot.ts';
import type { ArgumentVerdict } from '../validation/argument-validator.ts';
import { effectClassOf, type EffectClass, type TrustConfig } from '../validation/trust.ts';
import type { GateVerdict, RefusalCode } from './codes.ts';
import type { DisclosureEntry, DisclosureLedger } from './disclosure-ledger.ts';

/** A planned call, bound to one snapshot of one catalog key (SPEC section 1, plan). */
export interface CallPlan {
  planId: string;
  /** The catalog key of the snapshot the plan was made from. */
  key: CatalogKey;
  /** The generation that disclosed the tool to the planner. */
  generation: number;
  snapshotDigest: string;
  toolName: string;
  /** The descriptor digest the plan was made against (SPEC section 4). */
  descriptorDigest: string;
}

/** One `tools/call` a session asks the core to make. */
export interface CallRequest {
  /** Unique per call; written in `gate_decision` and `receipt`. */
  callId: string;
  session: string;
  /** Who calls; the lease is bound to it. */
  principal: string;
  /** The caller's audience class (tenant, role). */
  audience: AudienceClass;
  /** The identity of the server the caller addresses, as it presents itself now. */
  identity: string;
  plan: CallPlan;
  /** The tool's arguments; absent means `{}`. */
  arguments?: Record<string, unknown>;
  /** A human confirmation of this plan, for a non-READ tool of an unversioned source. */
  confirmationToken?: string;
  /** The resource scope the call may touch; bound into the lease. */
  resourceScope: string;
}

/** Checks human confirmations (a port: the host's confirmation UI or the simulator's planner). */
export interface ConfirmationVerifier {
  /** Whether `token` is a valid confirmation of plan `planId` in `session`. */
  verify(session: string, planId: string, token: string): boolean;
}

/** The gate's view of policy: the epoch and grants of an audience now. */
export interface PolicyView {
  epoch(audience: AudienceClass): number;
  holds(audience: AudienceClass, toolName: string): boolean;
}

/** The pinned-schema argument check (`ArgumentValidator` of `src/validation`). */
export interface ArgumentCheck {
  validate(descriptorDigest: string, inputSchema: unknown, args: unknown): ArgumentVerdict;
}

/** What the gate reads. */
export interface GateDeps {
  registry: CatalogRegistry;
  policy: PolicyView;
  ledger: DisclosureLedger;
  trust: TrustConfig;
  validator: ArgumentCheck;
  /** Absent: no confirmation is ever valid. */
  confirmations?: ConfirmationVerifier;
  /** Whether the refresh loop of a catalog key is quarantined (operator attention). */
  isQuarantined(key: CatalogKey): boolean;
  /** The identity the core's connection for the caller presents now; undefined without one. */
  connectionIdentity(request: CallRequest): string | undefined;
}

/** One decision, with what it was taken against (for `gate_decision` and the receipt). */
export interface GateDecision {
  verdict: GateVerdict;
  /** The caller's catalog key. */
  key: CatalogKey;
  /** The active generation the gate checked (from CATALOG_EXPIRED on), else undefined. */
  record: GenerationRecord | undefined;
  /** That generation's tool for the plan (same name, the plan's digest preferred), if any. */
  tool: SnapshotTool | undefined;
  /** The core's policy epoch for the caller's audience at the decision. */
  policyEpoch: number;
  /** The disclosure that showed the plan's tool to the session, if any. */
  disclosure: DisclosureEntry | undefined;
  /** ARGS_INVALID only: the validator's errors (`#<instancePath> <keyword>`). */
  argumentErrors?: string[];
}

/**
 * The admission gate of SPEC section 7. Each defence is a protected method, so a
 * checker-validation mutant (cores/mutants) can remove exactly one by overriding it; `decide`
 * calls them in the order of the refusal codes.
 */
export class AdmissionGate {
  constructor(protected readonly deps: GateDeps) {}

  /** Decides one call now; never throws for any request or catalog content. */
  decide(request: CallRequest): GateDecision {
    const key: CatalogKey = { identity: request.identity, ...request.audience };
    const decision: GateDecision = {
      verdict: 'ADMIT',
      key,
      record: undefined,
      tool: undefined,
      policyEpoch: this.deps.policy.epoch(request.audience),
      disclosure: undefined,
    };
    const early = this.keyRefusal(request, key);
    if (early !== undefined) return { ...decision, verdict: early };
    const served = this.generationFor(key, request);
    const record = served.ok ? served.record : this.deps.registry.active(key);
    const checked = served.ok || served.code === 'CATALOG_EXPIRED' ? record : undefined;
    const tool = checked === undefined ? undefined : toolOf(checked.snapshot, request.plan);
    if (!served.ok) return { ...decision, verdict: served.code, record: checked, tool };
    const disclosure = this.deps.ledger.lookup(
      request.session,
      key,
      request.plan.toolName,
      request.plan.descriptorDigest,
    );
    return {
      ...decision,
      record: served.record,
      tool,
      disclosure,
      ...this.callChecks(request, served.record, tool, disclosure),
    };
  }

  /** SERVER_DISABLED and TENANT_MISMATCH: is the caller's key usable, and is it the plan's? */
  protected keyRefusal(request: CallRequest, key: CatalogKey): RefusalCode | undefined {
    if (this.deps.registry.isDisabled(key) || this.deps.isQuarantined(key)) return 'SERVER_DISABLED';
    if (this.deps.connectionIdentity(request) !== request.plan.key.identity) return 'SERVER_DISABLED';
    const { tenant, role } = request.plan.key;
    if (tenant !== request.audience.tenant || role !== request.audience.role) return 'TENANT_MISMATCH';
    return undefined;
  }

  /**
   * The generation the call is checked against: the one active for the caller's key now (never
   * the plan's, which may be stale), with the serving rules (INCOMPLETE_DISCOVERY, CATALOG_EXPIRED).
   */
  protected generationFor(key: CatalogKey, _request: CallRequest): ServeResult {
    return this.deps.registry.serve(key);
  }

  /** From UNDISCLOSED_TOOL to ARGS_INVALID, against the served generation. */
  protected callChecks(
    request: CallRequest,
    record: GenerationRecord,
    tool: SnapshotTool | undefined,
    disclosure: DisclosureEntry | undefined,
  ): Pick<GateDecision, 'verdict' | 'argumentErrors'> {
    const { plan } = request;
    if (!this.wasDisclosed(disclosure)) return { verdict: 'UNDISCLOSED_TOOL' };
    if (tool === undefined || tool.descriptorDigest !== plan.descriptorDigest) return { verdict: 'STALE_CATALOG' };
    if (!this.holdsGrant(request, record)) return { verdict: 'POLICY_REVOKED' };
    if (tool.verdict !== 'ok') return { verdict: 'TOOL_QUARANTINED' };
    if (record.status === 'UNVERSIONED_OBSERVATION' && !this.mayWriteUnversioned(request, tool))
      return { verdict: 'UNVERSIONED_WRITE' };
    const args = this.checkArguments(tool, request.arguments ?? {});
    return args.ok ? { verdict: 'ADMIT' } : { verdict: 'ARGS_INVALID', argumentErrors: args.errors };
  }

  /** Reject-on-novel: only a tool this session was shown may be called. */
  protected wasDisclosed(disclosure: DisclosureEntry | undefined): boolean {
    return disclosure !== undefined;
  }

  /** At the current policy epoch the caller's audience holds the tool. */
  protected holdsGrant(request: CallRequest, _record: GenerationRecord): boolean {
    return this.deps.policy.holds(request.audience, request.plan.toolName);
  }

  /** The tool's effect class, from trusted policy only (TrustConfig.effectClasses, never annotations). */
  protected effectClass(request: CallRequest, _tool: SnapshotTool): EffectClass {
    return effectClassOf(this.deps.trust, request.plan.toolName);
  }

  /**
   * A tool of an unversioned source may be called without a confirmation only if its trusted
   * effect class is READ.
   */
  protected mayWriteUnversioned(request: CallRequest, tool: SnapshotTool): boolean {
    if (this.effectClass(request, tool) === 'READ') return true;
    const token = request.confirmationToken;
    if (token === undefined || this.deps.confirmations === undefined) return false;
    try {
      return this.deps.confirmations.verify(request.session, request.plan.planId, token) === true;
    } catch {
      return false;
    }
  }

  /**
   * The pinned-schema check. The validator throws only for a schema the content checks should
   * have quarantined; the gate then refuses (fails closed) rather than sending an unchecked call.
   */
  protected checkArguments(tool: SnapshotTool, args: unknown): ArgumentVerdict {
    const inputSchema = (tool.source as { inputSchema?: unknown } | null)?.inputSchema;
    try {
      return this.deps.validator.validate(tool.descriptorDigest, inputSchema, args);
    } catch {
      return { ok: false, errors: ['# schema'] };
    }
  }
}

/** Tools by name, per snapshot (snapshots are immutable, so the index never goes stale). */
const TOOL_INDEX = new WeakMap<ToolCatalogSnapshot, Map<string, SnapshotTool[]>>();

/** The snapshot's tool named by the plan: the one with the plan's digest if several share the name. */
function toolOf(snapshot: ToolCatalogSnapshot, plan: CallPlan): SnapshotTool | undefined {
  let index = TOOL_INDEX.get(snapshot);
  if (index === undefined) TOOL_INDEX.set(snapshot, (index = indexTools(snapshot.tools)));
  const named = index.get(plan.toolName);
  return named?.find((tool) => tool.descriptorDigest === plan.descriptorDigest) ?? named?.[0];
}

function indexTools(tools: readonly SnapshotTool[]): Map<string, SnapshotTool[]> {
  const index = new Map<string, SnapshotTool[]>();
  for (const tool of tools) {
    const named = index.get(tool.name);
    if (named === undefined) index.set(tool.name, [tool]);
    else named.push(tool);
  }
  return index;
}
