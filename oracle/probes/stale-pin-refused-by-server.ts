/**
 * Coverage probe `stale-pin-refused-by-server`: a server refused a call for a stale revision pin.
 * Read from a world event, but only a core that pins its calls to a revision (the reference core
 * does; `peer:list-once` does not, and never reaches it) can be refused so: a reference-core probe.
 */
import type { Probe } from './probe.ts';

/** A server refused a call for a stale revision pin. */
export const stalePinRefusedByServer: Probe = {
  name: 'stale-pin-refused-by-server',
  basis: 'reference',
  description: 'a server refused a call for a stale revision pin',
  hit: (events) => events.some((e) => e.type === 'call_refused_by_server' && e.code === 'STALE_PIN'),
};
