/** Coverage probe `stale-pin-refused-by-server`: a server refused a call for a stale revision pin. */
import type { Probe } from './probe.ts';

/** A server refused a call for a stale revision pin. */
export const stalePinRefusedByServer: Probe = {
  name: 'stale-pin-refused-by-server',
  basis: 'world',
  description: 'a server refused a call for a stale revision pin',
  hit: (events) => events.some((e) => e.type === 'call_refused_by_server' && e.code === 'STALE_PIN'),
};
