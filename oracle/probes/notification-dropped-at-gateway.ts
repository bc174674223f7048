/**
 * Coverage probe `notification-dropped-at-gateway` (world): a change of a server behind a
 * legacy-era gateway (its latest `server_up` carries the trait `ERA:gateway`) was a notification
 * the gateway never relayed (`notification_sent` with `delivered: false`: F29's stateless gateway).
 * Read from the world's events alone; I33 judges whether the core read the change by polling.
 */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

function notificationDroppedAtGateway(events: readonly KnownEvent[]): boolean {
  const gateway = new Map<string, boolean>();
  for (const e of events) {
    if (e.type === 'server_up') gateway.set(e.server, e.traits.includes('ERA:gateway'));
    else if (e.type === 'notification_sent' && !e.delivered && gateway.get(e.server) === true) return true;
  }
  return false;
}

/** A gateway relayed no notification of a change. */
export const notificationDroppedAtGatewayProbe: Probe = {
  name: 'notification-dropped-at-gateway',
  basis: 'world',
  description: 'a server behind a gateway changed and the gateway relayed no notification',
  hit: notificationDroppedAtGateway,
};
