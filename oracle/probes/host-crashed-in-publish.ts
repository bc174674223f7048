/** Coverage probe `host-crashed-in-publish` (F18): the host died inside a publish transaction, and the new boot served on. */
import { crashThenServed } from './internal/host-crash.ts';
import type { Probe } from './probe.ts';

/** The crash cut a publish inside its transaction, and the reloaded registry served on. */
export const hostCrashedInPublish: Probe = {
  name: 'host-crashed-in-publish',
  basis: 'reference',
  description:
    'the host died inside a publish transaction (before its catalog receipt), and the boot that reloaded the registry served on',
  hit: crashThenServed((_before, crash) => crash.point === 'in_publish' && crash.cut !== null),
};
