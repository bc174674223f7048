/**
 * Coverage probe `version-changed-called` (F32): the core named two versions of one tool in its
 * receipts (`receipt.version`: the same tool id, two version numbers), so a tool changed in the
 * round and was called both before and after, each call under the version that ran (I35). It
 * reads the core's receipts, so only the reference core is held to it.
 */
import type { Probe } from './probe.ts';

/** Two receipts naming one tool id with different version numbers. */
export const versionChangedCalled: Probe = {
  name: 'version-changed-called',
  basis: 'reference',
  description: 'a tool was called under two versions in one round, each receipt naming its own (F32)',
  hit: (events) => {
    const versions = new Map<string, number>();
    for (const event of events) {
      if (event.type !== 'receipt' || event.version === undefined || event.version === null) continue;
      const seen = versions.get(event.version.toolId);
      if (seen !== undefined && seen !== event.version.version) return true;
      versions.set(event.version.toolId, event.version.version);
    }
    return false;
  },
};
