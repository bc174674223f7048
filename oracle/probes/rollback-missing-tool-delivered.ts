/** Coverage probe `rollback-missing-tool-delivered` (F19): a missing-tool-rate trigger reached a core with something published for its key. */
import { triggerOutcomes } from '../internal/rollback-outcome.ts';
import type { Probe } from './probe.ts';

/** A delivered `missing_tool_rate` trigger that was owed an outcome (its key had a live publish). */
export const rollbackMissingToolDelivered: Probe = {
  name: 'rollback-missing-tool-delivered',
  basis: 'reference',
  description:
    'a missing-tool-rate rollback trigger was delivered to the core for a key with a published, not DISABLED catalog',
  hit: (events) => triggerOutcomes(events).some((outcome) => outcome.trigger.kind === 'missing_tool_rate'),
};
