/**
 * A core that does nothing at all: it never connects, shows nothing and sends nothing. It proves
 * that the oracle does not mistake silence for correctness: the world offered it every catalog key
 * (its planners asked about each), so it owes liveness for each, and fails I12 NOT_PUBLISHED
 * (test/untrusted-cores.test.ts). Before the oracle owed liveness to the keys the planners asked
 * about, and not only to those a client connected as, this core passed every round.
 */
import { defineCore } from 'catsim';

export default defineCore({
  name: 'inert',
  create: () => ({
    attach: () => undefined,
    disclose: () => ({ ok: false, code: 'INCOMPLETE_DISCOVERY' }),
    call: () => Promise.resolve(),
    pushPolicy: () => undefined,
    stop: () => undefined,
  }),
});
