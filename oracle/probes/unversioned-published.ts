/** Coverage probe `unversioned-published`: an unversioned source published as UNVERSIONED_OBSERVATION. */
import type { Probe } from './probe.ts';

/** An unversioned source published as UNVERSIONED_OBSERVATION. */
export const unversionedPublished: Probe = {
  name: 'unversioned-published',
  basis: 'reference',
  description: 'an unversioned source published as UNVERSIONED_OBSERVATION',
  hit: (events) => events.some((e) => e.type === 'published' && e.status === 'UNVERSIONED_OBSERVATION'),
};
