/**
 * The trace contract `catsim.trace.v1` (docs/TRACE.md): what a core emits as observations, what
 * the simulator writes as ground truth, and what the oracle reads. A core written outside this
 * repository imports its types and the validation the simulator applies from here.
 */
export { TRACE_SCHEMA } from './trace/schema.ts';
export { TRACE_EVENTS } from './trace/events.ts';
export { TRACE_HEADER } from './trace/header.ts';
export { EVENT_SOURCES } from './trace/event-sources.ts';
export { eventProblem } from './trace/event-problem.ts';
export { headerProblem } from './trace/header-problem.ts';
export { observationProblem } from './trace/observation-problem.ts';
export {
  CALL_OUTCOMES,
  DISCLOSURE_REFUSALS,
  EFFECT_CLASSES,
  GATE_DECISIONS,
  GATE_REFUSALS,
  CAPABILITY_REFUSALS,
  INCOMPLETE_REASONS,
  PLAN_KINDS,
  HOST_CRASH_POINTS,
  PLANTED_DEFECTS,
  POLICY_CHANNELS,
  PUBLISH_STATUSES,
  QUARANTINE_REASONS,
  ROLLBACK_DELIVERIES,
  EMERGENCY_DISABLE_DELIVERIES,
  ROLLBACK_TRIGGER_KINDS,
  ROUND_END_REASONS,
  ROUND_STATUSES,
  SCAN_END_REASONS,
  SCAN_END_STATES,
  SERVER_CALL_REFUSALS,
  TOOL_QUARANTINE_REASONS,
  TOOL_VERDICTS,
} from './trace/codes.ts';
export type {
  CoreEvent,
  CoreEventType,
  CoreObservation,
  EventBase,
  EventSource,
  Trace,
  TraceBounds,
  TraceEvent,
  TraceEventOf,
  TraceEventType,
  TraceHeader,
  WorldEvent,
  WorldEventType,
  WorldFields,
} from './trace/types.ts';
