/**
 * The disclosure ledger (SPEC sections 1 and 7): per session, which published generation showed
 * which tool. A tool is disclosed to a session only when the host discloses a generation to it
 * (`CatalogHost.disclose`); the gate refuses `UNDISCLOSED_TOOL` for anything else
 * (reject-on-novel), and the receipt names the disclosure that showed the tool.
 *
 * A tool here is a (name, descriptor digest) pair on one catalog key: the same name shown with
 * another descriptor, or by another server, is another tool. Order of calls: `record` at every
 * disclosure, `lookup` at every call, `forget` when a session ends (the ledger holds one entry per
 * distinct descriptor a session was shown, so long-lived hosts should forget ended sessions).
 */
import { keyName, type CatalogKey } from '../keys.ts';
import type { GenerationRecord } from '../registry/store.ts';

/** The disclosure that showed a tool to a session: the latest one for that descriptor. */
export interface DisclosureEntry {
  descriptorDigest: string;
  /** The generation shown. */
  generation: number;
  /** The snapshot digest of that generation. */
  snapshotDigest: string;
}

/** name → descriptor digest → latest disclosure, per catalog key, per session. */
type SessionLedger = Map<string, Map<string, Map<string, DisclosureEntry>>>;

/** Per session, the tools each disclosed generation showed. */
export class DisclosureLedger {
  readonly #sessions = new Map<string, SessionLedger>();

  /**
   * Records that `record` (a generation of `key`, the caller's catalog key) was shown whole to
   * `session`: every tool of its snapshot, quarantined ones included (the gate refuses those with
   * `TOOL_QUARANTINED`). A later disclosure of the same descriptor replaces the entry.
   */
  record(session: string, key: CatalogKey, record: GenerationRecord): void {
    const byName = this.#keyLedger(session, key);
    for (const tool of record.snapshot.tools) {
      let byDigest = byName.get(tool.name);
      if (byDigest === undefined) byName.set(tool.name, (byDigest = new Map()));
      byDigest.set(tool.descriptorDigest, {
        descriptorDigest: tool.descriptorDigest,
        generation: record.catalogGeneration,
        snapshotDigest: record.snapshotDigest,
      });
    }
  }

  /** The latest disclosure of tool (`toolName`, `descriptorDigest`) on `key` to `session`, if any. */
  lookup(session: string, key: CatalogKey, toolName: string, descriptorDigest: string): DisclosureEntry | undefined {
    return this.#sessions.get(session)?.get(keyName(key))?.get(toolName)?.get(descriptorDigest);
  }

  /** Drops everything recorded for a session (it ended); its later calls are UNDISCLOSED_TOOL. */
  forget(session: string): void {
    this.#sessions.delete(session);
  }

  #keyLedger(session: string, key: CatalogKey): Map<string, Map<string, DisclosureEntry>> {
    let ledger = this.#sessions.get(session);
    if (ledger === undefined) this.#sessions.set(session, (ledger = new Map()));
    const name = keyName(key);
    let byName = ledger.get(name);
    if (byName === undefined) ledger.set(name, (byName = new Map()));
    return byName;
  }
}
