/**
 * Coverage probe `disguised-break-listed` (F36): a server changed a tool's contract in a breaking
 * way under a compatible-looking version claim, a run had pinned the old contract (a `plan_made`
 * before the change names its `from` digest), and afterwards the server listed the new contract
 * in a `tools/list` page, so a core could read the change while that run still held its plan. It
 * reads only the world's events, so any core's campaign reaches it as often as the reference's.
 */
import type { KnownEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** A breaking `contract_changed` whose `from` a plan pinned before it, and a page listing its `to` after it. */
export const disguisedBreakListed: Probe = {
  name: 'disguised-break-listed',
  basis: 'world',
  description:
    'a breaking contract change under a compatible-looking claim was listed after a run had pinned the old contract (F36)',
  hit: (events) => {
    const pinned = new Set<string>();
    const changed: { server: string; to: string }[] = [];
    for (const event of events) {
      if (event.type === 'plan_made') pinned.add(event.descriptorDigest);
      else if (event.type === 'contract_changed' && event.change === 'breaking' && pinned.has(event.from))
        changed.push({ server: event.server, to: event.to });
      else if (event.type === 'page_served' && listsChanged(event, changed)) return true;
    }
    return false;
  },
};

function listsChanged(
  page: Extract<KnownEvent, { type: 'page_served' }>,
  changed: readonly { server: string; to: string }[],
): boolean {
  return changed.some((change) => change.server === page.server && page.tools.includes(change.to));
}
