/**
 * Coverage probe `removal-while-referenced` (F35): an operator ordered the removal of a tool's
 * versions while the host was up, and the world had disclosed one of them to a session before the
 * walk began (its first order past `announce`, which leaves the versions bindable: so a live run
 * pinned it, and the removal must be refused). It reads only the world's
 * `lifecycle_ordered` and `disclosure` (not the core's answer), so any core's campaign reaches it
 * as often as the reference's.
 */
import type { Probe } from './probe.ts';

/** A `remove` of `lifecycle_ordered`, not `host_down`, with a version a `disclosure` of that server showed before the walk's first order past `announce`. */
export const removalWhileReferenced: Probe = {
  name: 'removal-while-referenced',
  basis: 'world',
  description:
    "an operator ordered a removal of a tool's versions that a session was shown before the walk began (F35)",
  hit: (events) => {
    const walkStart = new Map<string, number>();
    const shown = new Map<string, number>();
    for (const event of events) {
      if (event.type === 'disclosure')
        for (const digest of event.tools) {
          const ref = `${event.server}\u0000${digest}`;
          if (!shown.has(ref)) shown.set(ref, event.seq);
        }
      if (event.type !== 'lifecycle_ordered' || event.delivery === 'host_down') continue;
      const walk = `${event.server}\u0000${event.tool}`;
      if (!walkStart.has(walk) && event.step !== 'announce') walkStart.set(walk, event.seq);
      if (event.step !== 'remove') continue;
      const start = walkStart.get(walk) ?? event.seq;
      const referenced = event.descriptorDigests.some(
        (digest) => (shown.get(`${event.server}\u0000${digest}`) ?? Number.POSITIVE_INFINITY) < start,
      );
      if (referenced) return true;
    }
    return false;
  },
};
