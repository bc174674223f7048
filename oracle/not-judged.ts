/**
 * Capabilities a core may leave out (docs/CORE-API.md), and how much of a round the oracle could
 * not judge because the core left one out. Jepsen's rule: an unknown is never a pass. A round
 * whose planned F19 triggers found no `rollback` (the world wrote them `unsupported`), or whose
 * planned model turns found no tool surface stage (`surface_unsupported`), judged nothing of that
 * part of the catalog's life; the campaign verdict then says NOT JUDGED (exit 1) unless the user
 * accepts the capability by name (`--not-judged rollback,surface`, or a scenario's `notJudged`).
 *
 * Read from the round's metrics (oracle/metrics.ts), which come from the world's events only (a
 * core cannot make itself judged by what it reports), but for `results`: a structured result
 * (F33) is judged by what the core says of it, so a core that says nothing (no
 * `receipt_outcome.output`) leaves it not judged; saying something makes it judged, never passed.
 */
import type { RoundMetrics } from './metrics.ts';

/** Every capability a core may leave out, in the order verdicts name them. */
export const CAPABILITIES = ['rollback', 'surface', 'versions', 'results', 'aliases', 'lifecycle', 'backups'] as const;

/**
 * A capability a core may leave out: `rollback` (F19 triggers), `surface` (F22 model turns),
 * `versions` (tool versions: F26's emergency disables, `emergencyDisable` of the core API, and the
 * receipts of calls to a server the operator described (F32) from a core that names no version),
 * `results` (F33's structured results: a core that writes no `receipt_outcome.output` does not
 * check results against the output schema of the version that ran), and
 * `aliases` (F34's alias orders, `alias` of the core API), `lifecycle` (F31's deprecations,
 * `deprecate` of the core API, and F35's walks of a tool's versions to sunset, disabled and
 * removal, `remove` of the core API) and `backups` (F37's outages
 * of a primary with a backup endpoint, `attachBackup` of the core API).
 */
export type Capability = (typeof CAPABILITIES)[number];

/** What one unit of each capability's unjudged work is called in verdicts (`1 rollback trigger`, `88 rollback triggers`). */
export const CAPABILITY_UNITS: Readonly<Record<Capability, { one: string; many: string }>> = {
  rollback: { one: 'rollback trigger', many: 'rollback triggers' },
  surface: { one: 'model turn', many: 'model turns' },
  versions: { one: 'tool-version check', many: 'tool-version checks' },
  results: { one: 'structured result', many: 'structured results' },
  aliases: { one: 'alias order', many: 'alias orders' },
  lifecycle: { one: 'lifecycle order', many: 'lifecycle orders' },
  backups: { one: 'primary outage', many: 'primary outages' },
};

/**
 * The capabilities a round could not judge, each with how many units it left unjudged (rollback:
 * triggers written `unsupported`; surface: model turns planned for a core without a surface
 * stage; versions: emergency disables written `unsupported` and receipts I35 could not judge for
 * want of versions; results: structured results whose outcome carries no output check; aliases:
 * alias orders written `unsupported`; lifecycle: deprecation and lifecycle orders written
 * `unsupported`; backups: outages of a primary written with the backup
 * `unsupported`), in {@link CAPABILITIES} order; capabilities the round judged
 * (or never exercised) are absent.
 */
export function unjudgedIn(
  metrics: Pick<
    RoundMetrics,
    | 'surface'
    | 'rollbackTriggers'
    | 'emergencyDisables'
    | 'unversionedReceipts'
    | 'results'
    | 'deprecationOrders'
    | 'aliasOrders'
    | 'lifecycleOrders'
    | 'backupOutages'
  >,
): Partial<Record<Capability, number>> {
  const counts: Partial<Record<Capability, number>> = {};
  const triggers = metrics.rollbackTriggers?.unsupported ?? 0;
  if (triggers > 0) counts.rollback = triggers;
  const turns = metrics.surface.unsupportedTurns;
  if (turns > 0) counts.surface = turns;
  const versionChecks = (metrics.emergencyDisables?.unsupported ?? 0) + (metrics.unversionedReceipts ?? 0);
  if (versionChecks > 0) counts.versions = versionChecks;
  const unchecked = metrics.results?.unchecked ?? 0;
  if (unchecked > 0) counts.results = unchecked;
  const aliasOrders = metrics.aliasOrders?.unsupported ?? 0;
  if (aliasOrders > 0) counts.aliases = aliasOrders;
  const lifecycleOrders = (metrics.deprecationOrders?.unsupported ?? 0) + (metrics.lifecycleOrders?.unsupported ?? 0);
  if (lifecycleOrders > 0) counts.lifecycle = lifecycleOrders;
  const outages = metrics.backupOutages?.unsupported ?? 0;
  if (outages > 0) counts.backups = outages;
  return counts;
}

/** True when `name` is a {@link Capability}. */
export function isCapability(name: string): name is Capability {
  return (CAPABILITIES as readonly string[]).includes(name);
}
