/** Coverage probe `host-crashed-calls-in-flight` (F18): the host died with a call sent and its outcome not yet back. */
import { callInFlight, crashThenServed } from './internal/host-crash.ts';
import type { Probe } from './probe.ts';

/** The crash came while a call was in flight (a receipt without its outcome); the new boot served on. */
export const hostCrashedCallsInFlight: Probe = {
  name: 'host-crashed-calls-in-flight',
  basis: 'reference',
  description:
    'the host died while a call it had sent was still in flight, and the boot that reloaded the registry served on',
  hit: crashThenServed((before) => callInFlight(before)),
};
