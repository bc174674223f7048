/**
 * Coverage probe `announced-still-bound` (F35): after an operator's delivered `announce` of a
 * tool's versions, and before the walk's next order, a call of one of them planned from a
 * generation the world first disclosed after the announce was admitted: a new run bound an
 * announced version and called it, as stage `announce` requires (I38's fourth rule held where it
 * could bite). It reads the core's `gate_decision`, so only the reference core is held to it.
 */
import { parseCatalogKey } from '../catalog-key.ts';
import type { Probe } from './probe.ts';

/** The announce window of a walked tool (by the identity its server presents and its name): its digests and the seq of the announce order. */
interface Announced {
  seq: number;
  digests: readonly string[];
}

/**
 * An ADMIT of a walked tool, under a key of the identity the order named, while its `announce` is
 * its walk's latest delivered order, whose plan names an announced digest through a generation
 * first disclosed after the announce.
 */
export const announcedStillBound: Probe = {
  name: 'announced-still-bound',
  basis: 'reference',
  description: 'a new run bound a version an operator had announced deprecated, and its call was admitted (F35)',
  hit: (events) => {
    const firstShown = new Map<string, number>();
    const plans = new Map<string, { generationRef: string; digest: string }>();
    const announced = new Map<string, Announced>();
    for (const event of events) {
      if (event.type === 'disclosure') {
        const ref = `${event.key}#${event.generation}`;
        if (!firstShown.has(ref)) firstShown.set(ref, event.seq);
      }
      if (event.type === 'plan_made')
        plans.set(`${event.session}\u0000${event.planId}`, {
          generationRef: `${event.key}#${event.generation}`,
          digest: event.descriptorDigest,
        });
      if (event.type === 'lifecycle_ordered' && event.delivery === 'delivered') {
        const walk = `${event.identity}\u0000${event.tool}`;
        if (event.step === 'announce') announced.set(walk, { seq: event.seq, digests: event.descriptorDigests });
        else announced.delete(walk);
      }
      if (event.type !== 'gate_decision' || event.decision !== 'ADMIT') continue;
      const order = announced.get(`${parseCatalogKey(event.key).identity}\u0000${event.tool}`);
      const plan = plans.get(`${event.session}\u0000${event.planId}`);
      if (order === undefined || plan === undefined || !order.digests.includes(plan.digest)) continue;
      if ((firstShown.get(plan.generationRef) ?? -1) > order.seq) return true;
    }
    return false;
  },
};
