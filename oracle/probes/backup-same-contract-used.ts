/**
 * Coverage probe `backup-same-contract-used` (F37): while a server's primary was down, its backup,
 * serving the backed-up tool under the primary's contract, executed a call of that tool (the
 * world's `call_executed` with `endpoint: 'backup'`): the core failed over where it may (I40). It
 * reads what the core chose to send, so only the reference core is held to it.
 */
import type { Probe } from './probe.ts';

/** A backup execution of the tool of a `primary_down` whose backup serves the `same` contract, during the outage. */
export const backupSameContractUsed: Probe = {
  name: 'backup-same-contract-used',
  basis: 'reference',
  description: "a backup serving the primary's contract executed a call while the primary was down (F37)",
  hit: (events) => {
    const same = new Map<string, string>();
    for (const event of events) {
      if (event.type === 'primary_down' && event.contract === 'same') same.set(event.server, event.tool);
      else if (event.type === 'primary_up') same.delete(event.server);
      else if (event.type === 'call_executed' && event.endpoint === 'backup' && same.get(event.server) === event.tool)
        return true;
    }
    return false;
  },
};
