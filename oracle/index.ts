/**
 * Public API of the catsim oracle (SPEC section 11): parse a `catsim.trace.v1` trace and judge it.
 * The oracle imports nothing from `src/` or `sim/`; it works on plain JSON events only.
 */
export {
  TRACE_SCHEMA,
  KNOWN_EVENT_SOURCES,
  TraceFormatError,
  asKnownEvent,
  parseTrace,
  rolledBackFromOf,
  type CasConflictEvent,
  type CoreEvent,
  type DefectPlantedEvent,
  type DisclosureEvent,
  type DisclosureRefusedEvent,
  type DisconnectedEvent,
  type EventBase,
  type EventSource,
  type IdentityRotatedEvent,
  type KeyQuarantinedEvent,
  type KnownEvent,
  type NotificationSentEvent,
  type PageReadEvent,
  type PageRefusedEvent,
  type PageServedEvent,
  type PublishRefusedEvent,
  type PublishStatus,
  type PublishedEvent,
  type PublishedPage,
  type PublishedTool,
  type QuietEvent,
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
  type TraceHeader,
  type UnknownEvent,
  type ViewTool,
  type WorldEvent,
} from './trace.ts';
export { checkEvents, checkTrace, type Verdict } from './check.ts';
export { INVARIANT_IDS, sortViolations, type InvariantId, type Violation } from './violation.ts';
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
  buildObservations,
  pointerEventBefore,
  publishOfGeneration,
  type Observations,
  type PointerEvent,
} from './observations.ts';
export { formatCatalogKey, parseCatalogKey, type CatalogKey } from './catalog-key.ts';
