/** Coverage probe `rollback-disabled` (F19): a delivered trigger found no earlier generation that qualifies, and the key was DISABLED. */
import { triggerOutcomes } from '../internal/rollback-outcome.ts';
import type { Probe } from './probe.ts';

/** A trigger's outcome was `server_disabled`: no earlier generation was fresh and authorized. */
export const rollbackDisabled: Probe = {
  name: 'rollback-disabled',
  basis: 'reference',
  description:
    'a delivered rollback trigger found no earlier generation unexpired and authorized now, and the key was DISABLED',
  hit: (events) => triggerOutcomes(events).some((outcome) => outcome.outcome?.type === 'server_disabled'),
};
