/** Coverage probe `rolled-back-to-fresh` (F19): a delivered trigger was answered by a rollback to an earlier generation. */
import { triggerOutcomes } from '../internal/rollback-outcome.ts';
import type { Probe } from './probe.ts';

/** A trigger's outcome was a rollback publish (`rolledBackFrom`), which I21 then judges fresh and authorized. */
export const rolledBackToFresh: Probe = {
  name: 'rolled-back-to-fresh',
  basis: 'reference',
  description:
    'a delivered rollback trigger was answered by a CAS back to an earlier generation (judged unexpired and authorized by I21)',
  hit: (events) => triggerOutcomes(events).some((outcome) => outcome.outcome?.type === 'published'),
};
