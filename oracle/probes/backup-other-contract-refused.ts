/**
 * Coverage probe `backup-other-contract-refused` (F37): while a server's primary was down, and its
 * backup served the backed-up tool under another contract, the core refused a call of that tool
 * on the server's catalog key `VERSION_INCOMPATIBLE` (no endpoint it could reach serves the
 * contract the run pinned) instead of failing over (I40). It reads the core's gate decisions, so
 * only the reference core is held to it.
 */
import type { Probe } from './probe.ts';

/** A `VERSION_INCOMPATIBLE` decision on the tool of an `other`-contract `primary_down`, on that server's key, during the outage. */
export const backupOtherContractRefused: Probe = {
  name: 'backup-other-contract-refused',
  basis: 'reference',
  description:
    'a call was refused VERSION_INCOMPATIBLE while the primary was down and its backup served another contract (F37)',
  hit: (events) => {
    const identities = new Map<string, string>();
    const other = new Map<string, string>();
    for (const event of events) {
      if (event.type === 'server_up') identities.set(event.server, event.identity);
      else if (event.type === 'primary_down' && event.contract === 'other') other.set(event.server, event.tool);
      else if (event.type === 'primary_up') other.delete(event.server);
      else if (event.type === 'gate_decision' && event.decision === 'VERSION_INCOMPATIBLE') {
        for (const [server, tool] of other)
          if (tool === event.tool && event.key.startsWith(`${identities.get(server)}|`)) return true;
      }
    }
    return false;
  },
};
