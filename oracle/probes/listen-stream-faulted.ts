/**
 * Coverage probe `listen-stream-faulted` (world): a modern-era server's listen stream went silent
 * (`listen_silenced`) or was ended by the server (`listen_ended` `complete`), or a connection the
 * core listened on was cut after its stream was acknowledged and the core then opened another
 * connection to that server (F27). Read from the world's events alone: it shows the situation
 * reached the core, whatever the core then did (I32 judges that it listened again).
 */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

function listenStreamFaulted(events: readonly KnownEvent[]): boolean {
  const cut = new Set<string>();
  for (const e of events) {
    if (e.type === 'listen_silenced') return true;
    if (e.type === 'listen_ended' && e.how === 'complete') return true;
    if (e.type === 'listen_ended' && e.how === 'disconnected') cut.add(`${e.server}|${e.audience}`);
    if (e.type === 'session_opened' && e.connection !== undefined && cut.has(`${e.server}|${e.audience}`)) return true;
  }
  return false;
}

/** A listen stream went silent, was completed by the server, or was lost with a connection the core replaced. */
export const listenStreamFaultedProbe: Probe = {
  name: 'listen-stream-faulted',
  basis: 'world',
  description:
    'a modern server silenced or completed a listen stream, or a listened connection was cut and the core connected again',
  hit: listenStreamFaulted,
};
