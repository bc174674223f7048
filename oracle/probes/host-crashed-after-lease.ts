/** Coverage probe `host-crashed-after-lease` (F18): the host died between issuing a lease and dispatching its call. */
import { crashThenServed } from './internal/host-crash.ts';
import type { Probe } from './probe.ts';

/** The crash came after a lease was issued and before its call left; the new boot served on. */
export const hostCrashedAfterLease: Probe = {
  name: 'host-crashed-after-lease',
  basis: 'reference',
  description:
    'the host died after a lease was issued but before its call was dispatched, and the boot that reloaded the registry served on',
  hit: crashThenServed((_before, crash) => crash.point === 'after_lease'),
};
