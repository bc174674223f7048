/** Coverage probe `unversioned-write-refused`: a non-READ call on an unversioned source refused without confirmation. */
import { decidedWith } from './internal/decided.ts';
import type { Probe } from './probe.ts';

/** A non-READ call on an unversioned source refused without confirmation. */
export const unversionedWriteRefused: Probe = {
  name: 'unversioned-write-refused',
  basis: 'reference',
  description: 'a non-READ call on an unversioned source refused without confirmation',
  hit: decidedWith('UNVERSIONED_WRITE'),
};
