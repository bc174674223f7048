/** Coverage probe `rollback-escalation-delivered` (F19): a privilege-escalation trigger reached a core with something published for its key. */
import { triggerOutcomes } from '../internal/rollback-outcome.ts';
import type { Probe } from './probe.ts';

/** A delivered `privilege_escalation` trigger that was owed an outcome (its key had a live publish). */
export const rollbackEscalationDelivered: Probe = {
  name: 'rollback-escalation-delivered',
  basis: 'reference',
  description:
    'a privilege-escalation rollback trigger was delivered to the core for a key with a published, not DISABLED catalog',
  hit: (events) => triggerOutcomes(events).some((outcome) => outcome.trigger.kind === 'privilege_escalation'),
};
