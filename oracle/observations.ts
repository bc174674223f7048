/**
 * What the core said it did, rebuilt from `src: "core"` events only (SPEC section 11): publishes
 * in trace order and per catalog key, the latest publish per key, each key's pointer history
 * (publishes, rollbacks included, and `server_disabled`), publishes by (key, generation), scan
 * starts and ends by scanId; and, for admission at call time, the gate decisions (by callId and by
 * plan), the receipts (by leaseId) and the policy epochs the core saw, per audience.
 *
 * Every core event type of the contract is indexed here and judged by an invariant: `page_read`
 * by I13, `cas_conflict` by I10, `receipt_outcome` by I6, `policy_seen` by I7 (and the revocation
 * delays of the report).
 *
 * Workflow: `buildObservations(events)` once per trace, then read the maps or ask the point-in-time
 * lookups below (binary searches, so a check may ask once per event). Like the ground-truth model,
 * it keeps references to the caller's events and never mutates them.
 */
import { pushTo, setFirst } from './internal/multimap.ts';
import { planRef } from './internal/plan-ref.ts';
import { latestBefore } from './internal/seq-search.ts';
import {
  asKnownEvent,
  type CasConflictEvent,
  type GateDecisionEvent,
  type PageReadEvent,
  type PolicySeenEvent,
  type PublishedEvent,
  type PublishedTool,
  type ReceiptEvent,
  type ReceiptOutcomeEvent,
  type ScanEndedEvent,
  type ScanStartedEvent,
  type ServerDisabledEvent,
  type TraceEvent,
} from './trace.ts';

/** A core event that moves or blocks a key's active pointer. */
export type PointerEvent = PublishedEvent | ServerDisabledEvent;

/** The core's observations of one round. */
export interface Observations {
  /** Every `published` event, in trace order. */
  readonly published: readonly PublishedEvent[];
  /**
   * The latest `published` event per catalog key: the active pointer at the end of the round
   * (a rollback is a publish too), unless a later `server_disabled` blocks the key
   * (see `pointerHistory`).
   */
  readonly latestPublished: ReadonlyMap<string, PublishedEvent>;
  /** Per catalog key, its `published` and `server_disabled` events in trace order. */
  readonly pointerHistory: ReadonlyMap<string, readonly PointerEvent[]>;
  /**
   * Per catalog key and generation, the publishes of that generation in trace order (more than
   * one only when a core repeated a generation, which I10 reports).
   */
  readonly publishesByGeneration: ReadonlyMap<string, ReadonlyMap<number, readonly PublishedEvent[]>>;
  /** The first `scan_started` per scanId. */
  readonly scanStarts: ReadonlyMap<string, ScanStartedEvent>;
  /** The first `scan_ended` per scanId. */
  readonly scanEnds: ReadonlyMap<string, ScanEndedEvent>;
  /** Per catalog key, its `published` events (rollbacks included) in trace order. */
  readonly publishedByKey: ReadonlyMap<string, readonly PublishedEvent[]>;
  /** Every `gate_decision`, in trace order. */
  readonly gateDecisions: readonly GateDecisionEvent[];
  /** The first `gate_decision` per callId. */
  readonly decisionByCallId: ReadonlyMap<string, GateDecisionEvent>;
  /** Per plan (`planRef(session, planId)`), its gate decisions in trace order. */
  readonly decisionsByPlan: ReadonlyMap<string, readonly GateDecisionEvent[]>;
  /** Every `receipt`, in trace order. */
  readonly receipts: readonly ReceiptEvent[];
  /** Per leaseId, its receipts in trace order (more than one is an I6 violation). */
  readonly receiptsByLeaseId: ReadonlyMap<string, readonly ReceiptEvent[]>;
  /** Per audience, the core's `policy_seen` events in trace order. */
  readonly policySeenByAudience: ReadonlyMap<string, readonly PolicySeenEvent[]>;
  /** Every `policy_seen`, in trace order. */
  readonly policySeen: readonly PolicySeenEvent[];
  /** Every `page_read`, in trace order. */
  readonly pageReads: readonly PageReadEvent[];
  /** Every `cas_conflict`, in trace order. */
  readonly casConflicts: readonly CasConflictEvent[];
  /** Every `receipt_outcome`, in trace order. */
  readonly receiptOutcomes: readonly ReceiptOutcomeEvent[];
}

/** The mutable form of `Observations` while one pass fills it. */
interface ObservationsBuilder extends Observations {
  readonly published: PublishedEvent[];
  readonly latestPublished: Map<string, PublishedEvent>;
  readonly pointerHistory: Map<string, PointerEvent[]>;
  readonly publishesByGeneration: Map<string, Map<number, PublishedEvent[]>>;
  readonly scanStarts: Map<string, ScanStartedEvent>;
  readonly scanEnds: Map<string, ScanEndedEvent>;
  readonly publishedByKey: Map<string, PublishedEvent[]>;
  readonly gateDecisions: GateDecisionEvent[];
  readonly decisionByCallId: Map<string, GateDecisionEvent>;
  readonly decisionsByPlan: Map<string, GateDecisionEvent[]>;
  readonly receipts: ReceiptEvent[];
  readonly receiptsByLeaseId: Map<string, ReceiptEvent[]>;
  readonly policySeenByAudience: Map<string, PolicySeenEvent[]>;
  readonly policySeen: PolicySeenEvent[];
  readonly pageReads: PageReadEvent[];
  readonly casConflicts: CasConflictEvent[];
  readonly receiptOutcomes: ReceiptOutcomeEvent[];
}

/** Builds the observation indexes in one pass; world events are skipped. */
export function buildObservations(events: readonly TraceEvent[]): Observations {
  const observed: ObservationsBuilder = {
    published: [],
    latestPublished: new Map(),
    pointerHistory: new Map(),
    publishesByGeneration: new Map(),
    scanStarts: new Map(),
    scanEnds: new Map(),
    publishedByKey: new Map(),
    gateDecisions: [],
    decisionByCallId: new Map(),
    decisionsByPlan: new Map(),
    receipts: [],
    receiptsByLeaseId: new Map(),
    policySeenByAudience: new Map(),
    policySeen: [],
    pageReads: [],
    casConflicts: [],
    receiptOutcomes: [],
  };
  for (const raw of events) {
    const event = asKnownEvent(raw);
    if (event === null || event.src !== 'core') continue;
    switch (event.type) {
      case 'published':
        addPublish(observed, event);
        break;
      case 'server_disabled':
        pushTo(observed.pointerHistory, event.key, event);
        break;
      case 'scan_started':
        setFirst(observed.scanStarts, event.scanId, event);
        break;
      case 'scan_ended':
        setFirst(observed.scanEnds, event.scanId, event);
        break;
      case 'gate_decision':
        addDecision(observed, event);
        break;
      case 'receipt':
        observed.receipts.push(event);
        pushTo(observed.receiptsByLeaseId, event.leaseId, event);
        break;
      case 'policy_seen':
        observed.policySeen.push(event);
        pushTo(observed.policySeenByAudience, event.audience, event);
        break;
      case 'page_read':
        observed.pageReads.push(event);
        break;
      case 'cas_conflict':
        observed.casConflicts.push(event);
        break;
      case 'receipt_outcome':
        observed.receiptOutcomes.push(event);
        break;
      default:
        break;
    }
  }
  return observed;
}

function addPublish(observed: ObservationsBuilder, event: PublishedEvent): void {
  observed.published.push(event);
  observed.latestPublished.set(event.key, event);
  pushTo(observed.pointerHistory, event.key, event);
  pushTo(innerMap(observed.publishesByGeneration, event.key), event.generation, event);
  pushTo(observed.publishedByKey, event.key, event);
}

function addDecision(observed: ObservationsBuilder, event: GateDecisionEvent): void {
  observed.gateDecisions.push(event);
  setFirst(observed.decisionByCallId, event.callId, event);
  pushTo(observed.decisionsByPlan, planRef(event.session, event.planId), event);
}

/**
 * The generation of `key` active just before `beforeSeq`: its latest publish (rollbacks are
 * publishes too) strictly earlier in the trace, or null. A later `server_disabled` does not
 * change which generation that is; ask `pointerEventBefore` whether the key was DISABLED.
 */
export function activePublishBefore(observed: Observations, key: string, beforeSeq: number): PublishedEvent | null {
  return latestBefore(observed.publishedByKey.get(key) ?? [], beforeSeq);
}

/** What a gate decision let through, rebuilt from the publishes (never from the decision's own claims). */
export interface AdmittedTool {
  /** The generation active for the decision's key at the decision, or null. */
  readonly active: PublishedEvent | null;
  /**
   * The active generation's tool of the decision's name: the one with the plan's descriptor
   * digest if several share the name (as the gate picks), else the first; null when absent.
   */
  readonly tool: PublishedTool | null;
  /** `tool`'s descriptor digest, or the plan's when the active generation has no such tool. */
  readonly descriptorDigest: string;
}

/** The tool a gate decision concerns, in the generation active for its key at that moment. */
export function admittedTool(observed: Observations, decision: GateDecisionEvent): AdmittedTool {
  const active = activePublishBefore(observed, decision.key, decision.seq);
  const named = active?.tools.filter((tool) => tool.name === decision.tool) ?? [];
  const tool =
    named.find((candidate) => candidate.descriptorDigest === decision.planDescriptorDigest) ?? named[0] ?? null;
  return { active, tool, descriptorDigest: tool?.descriptorDigest ?? decision.planDescriptorDigest };
}

/**
 * The publish of generation `generation` of `key` that the pointer held most recently before
 * `beforeSeq` (the latest such publish strictly earlier in the trace), or null if there was none.
 */
export function publishOfGeneration(
  observed: Observations,
  key: string,
  generation: number,
  beforeSeq: number,
): PublishedEvent | null {
  const publishes = observed.publishesByGeneration.get(key)?.get(generation) ?? [];
  return latestBefore(publishes, beforeSeq);
}

/**
 * The latest `published` or `server_disabled` of `key` strictly before `beforeSeq` (pass
 * `Infinity` for the end of the round), or null. A `server_disabled` result means the key was
 * DISABLED at that point.
 */
export function pointerEventBefore(observed: Observations, key: string, beforeSeq: number): PointerEvent | null {
  return latestBefore(observed.pointerHistory.get(key) ?? [], beforeSeq);
}

function innerMap<K, IK, V>(map: Map<K, Map<IK, V>>, key: K): Map<IK, V> {
  let inner = map.get(key);
  if (inner === undefined) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}
