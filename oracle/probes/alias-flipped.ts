/**
 * Coverage probe `alias-flipped` (F34): an operator flipped a tool's production alias to its
 * changed release (release 1) of a contract the server listed, while the host was up. It reads
 * only the world's `alias_ordered` (delivered, or `unsupported` for a core without `alias`), so
 * any core's campaign reaches it as often as the reference's.
 */
import type { Probe } from './probe.ts';

/** An `alias_ordered` setting release 1 of a listed contract, ordered while the host was up (not `host_down`). */
export const aliasFlipped: Probe = {
  name: 'alias-flipped',
  basis: 'world',
  description: "an operator flipped a tool's production alias to a changed release while the host was up (F34)",
  hit: (events) =>
    events.some(
      (event) =>
        event.type === 'alias_ordered' &&
        event.delivery !== 'host_down' &&
        event.release === 1 &&
        event.descriptorDigest !== null,
    ),
};
