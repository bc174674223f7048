/**
 * The seams of the reference core: the parts a checker-validation mutant (cores/mutants/, SPEC
 * section 12) replaces to remove exactly one defence. They are not part of the public host API:
 * `HostConfig` has no such fields, so a host cannot turn a defence off by configuration. The only
 * way in is a subclass of `CatalogHost` that overrides its protected `seams()`, which is what
 * cores/reference.ts does for each mutant.
 */
import { AdmissionGate } from '../admission/gate.ts';
import { CatalogRefresher } from '../discovery/refresher.ts';
import { Walk, type WalkConstructor } from '../discovery/scan.ts';
import { CatalogRegistry } from '../registry/registry.ts';
import { checkTools, type ContentChecks } from '../validation/content-checks.ts';

/** The replaceable parts of the core, each with the reference implementation as its default. */
export interface CoreSeams {
  /** The walk of one scan (SPEC section 3). */
  walk: WalkConstructor;
  /** The registry of published generations (SPEC section 6). */
  registry: typeof CatalogRegistry;
  /** The admission gate (SPEC section 7). */
  gate: typeof AdmissionGate;
  /** The per-tool content checks (SPEC section 5). */
  contentChecks: ContentChecks;
  /** The refresh loop of one connection and audience, with the call barrier it holds (SPEC sections 3, 6, 7). */
  refresher: typeof CatalogRefresher;
}

/** The reference core's own parts. */
export const REFERENCE_SEAMS: Readonly<CoreSeams> = Object.freeze({
  walk: Walk,
  registry: CatalogRegistry,
  gate: AdmissionGate,
  contentChecks: checkTools,
  refresher: CatalogRefresher,
});
