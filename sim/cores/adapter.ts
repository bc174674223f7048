/**
 * How the simulator drives a catalog core: the public core API `catsim.core.v1`
 * (contract/core-api.ts, docs/CORE-API.md), re-exported under the names the simulator's own
 * cores (reference, mutants, peers) were written against. There is one interface, not two.
 */
export {
  CORE_API,
  defineCore,
  type CallRequest,
  type Confirmations,
  type Connection,
  type Connector,
  type CoreAdapter,
  type CoreBounds,
  type CoreClock,
  type CoreDisk,
  type CoreDefinition,
  type CoreEnvironment,
  type CoreFactory,
  type CoreObservation,
  type CoreRandom,
  type CoreScheduler,
  type CoreTask,
  type CoreTimings,
  type DisclosedTool,
  type DisclosureResult,
  type EffectClass,
  type ObservationSink,
  type PolicySource,
  type PolicyUpdate,
  type SessionSpec,
  type SimCallRequest,
  type SimConnection,
  type SimPolicyUpdate,
} from '../../contract/core-api.ts';
