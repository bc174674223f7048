/** Coverage probe `host-crashed-after-commit` (F18): the host died right after a publish committed, and the new boot served on. */
import { crashThenServed } from './internal/host-crash.ts';
import type { Probe } from './probe.ts';

/** The crash came after a commit, before the publish returned to its caller; the new boot served on. */
export const hostCrashedAfterCommit: Probe = {
  name: 'host-crashed-after-commit',
  basis: 'reference',
  description:
    'the host died after a publish committed but before its caller was told, and the boot that reloaded the registry served on',
  hit: crashThenServed((_before, crash) => crash.point === 'after_commit'),
};
