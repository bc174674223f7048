/**
 * The tool surface stage, as a host embeds it (docs/SURFACE.md). Everything public is exported
 * here; `src/surface/internal/` is not part of the API (it holds the seams checker-validation
 * mutants use, SPEC section 12).
 */
export type { AdmissionFacts, SurfaceGrant } from './admission-facts.ts';
export {
  admissionFacts,
  type AdmissionFactsInput,
  type AdmissionFactsRefusal,
  type GrantView,
} from './admission-facts-of.ts';
export type { Baseline } from './baseline.ts';
export { surfaceBytes, type CapacityLimit, type SurfaceCapacity } from './capacity.ts';
export { InMemoryRequestLedger, type LedgerEntry, type RequestSettlement } from './in-memory-request-ledger.ts';
export type { DispatchedRequest, ModelRequest } from './model-request.ts';
export { projectBaseline } from './project-baseline.ts';
export type { RequestLedger, RequestOwner, RequestReservation } from './request-ledger.ts';
export type { SealedDispatchRecord, SealedTool } from './sealed-dispatch-record.ts';
export { SettlementError, type SettlementErrorCode } from './settlement-error.ts';
export type { HookInfo, SurfaceHook } from './surface-hook.ts';
export type { SurfaceCheck, SurfaceField, SurfaceMismatch } from './surface-mismatch.ts';
export type { CapacityStage, SurfaceRejection, SurfaceRejectionCode } from './surface-rejection.ts';
export type { JsonObject, SurfaceTool } from './surface-tool.ts';
export {
  ToolSurfaceStage,
  type DispatchResult,
  type HookToolsMode,
  type ModelCall,
  type PrepareInput,
  type PrepareResult,
  type SurfacePreparation,
  type ToolSurfaceStageConfig,
} from './tool-surface-stage.ts';
