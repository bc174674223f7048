/** Coverage probe `host-restarted-mid-scan` (F18): the host died with a walk between its pages, and the new boot served on. */
import { crashThenServed, scanOpen } from './internal/host-crash.ts';
import type { Probe } from './probe.ts';

/** The host died at a seeded instant while a scan was open, and the reloaded registry served on. */
export const hostRestartedMidScan: Probe = {
  name: 'host-restarted-mid-scan',
  basis: 'reference',
  description: 'the host died while a scan was between its pages, and the boot that reloaded the registry served on',
  hit: crashThenServed((before, crash) => crash.point === 'at_time' && scanOpen(before)),
};
