/**
 * Public API of the catsim oracle (SPEC section 11): parse a `catsim.trace.v1` trace and judge it.
 * The oracle imports nothing from `src/` or `sim/`; it works on plain JSON events only.
 */
export {
  TRACE_SCHEMA,
  KNOWN_EVENT_SOURCES,
  TraceFormatError,
  asKnownEvent,
  parseCompleteTrace,
  parseTrace,
  rolledBackFromOf,
  type CallExecutedEvent,
  type CallRefusedByServerEvent,
  type CasConflictEvent,
  type ConfirmationEvent,
  type CoreEvent,
  type CoreFailedEvent,
  type CoreObservation,
  type DefectPlantedEvent,
  type DisclosureEvent,
  type DisclosureRefusedEvent,
  type DisconnectedEvent,
  type EffectPolicyEvent,
  type EventBase,
  type GateDecisionEvent,
  type EventSource,
  type IdentityRotatedEvent,
  type KnownEvent,
  type NotificationSentEvent,
  type PageReadEvent,
  type PageRefusedEvent,
  type PageServedEvent,
  type PlanMadeEvent,
  type PolicyChangedEvent,
  type PolicyPushEvent,
  type PolicySeenEvent,
  type PublishStatus,
  type PublishedEvent,
  type PublishedPage,
  type PublishedTool,
  type QuietEvent,
  type ReceiptDisclosure,
  type ReceiptEvent,
  type ReceiptOutcomeEvent,
  type RevisionEvent,
  type RoundEndEvent,
  type RoundStatus,
  type ScanEndedEvent,
  type ScanStartedEvent,
  type ServerDisabledEvent,
  type ServerUpEvent,
  type SessionOpenedEvent,
  type Trace,
  type TraceBounds,
  type TraceEvent,
  type TraceEventOf,
  type TraceEventType,
  type TraceHeader,
  type ViewTool,
  type WorldEvent,
} from './trace.ts';
export { checkEvents, checkTrace, type Verdict } from './check.ts';
export type { RoundMetrics } from './metrics.ts';
export { percentile } from './percentile.ts';
export { revocationDelays, type RevocationDelay } from './revocation-delays.ts';
export { CORE_FAILED, INVARIANT_IDS, sortViolations, type InvariantId, type VerdictId, type Violation } from './violation.ts';
export {
  DISQUALIFYING_TRAIT_PREFIXES,
  GroundTruth,
  ScanRequests,
  ServerModel,
  buildGroundTruth,
  hasTraitPrefix,
  type IdentityChange,
  type TrueRevision,
} from './ground-truth.ts';
export {
  activePublishBefore,
  admittedTool,
  buildObservations,
  pointerEventBefore,
  publishOfGeneration,
  type AdmittedTool,
  type Observations,
  type PointerEvent,
} from './observations.ts';
export { formatCatalogKey, parseCatalogKey, type CatalogKey } from './catalog-key.ts';
export { judgeHostWire, type HostViolation, type HostWireVerdict, type WireOutcome } from './host-wire.ts';
