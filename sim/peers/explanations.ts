/**
 * What each peer gets wrong, as people wrote it down: for every invariant a peer violates in the
 * side-by-side table (`catsim prove --peers`, cli/commands/peers.ts), one sentence naming the
 * real defect, written from reading the shrunk trace of its first failing round (`catsim replay
 * --plan ... --core peer:NAME`) and the library's shipped source. Data, not code: the command
 * prints the sentence beside the finding, or "no explanation written yet" when there is none, and
 * test/peers/explanations.test.ts lists the findings that lack one, so none goes stale unnoticed.
 *
 * Also here: the npm package and version each library peer runs (pinned in package.json; the same
 * test checks them against the installed packages), which the table's preamble names.
 */

/** Printed in place of an explanation nobody has written yet. */
export const NO_EXPLANATION = 'no explanation written yet';

/** The real client library a peer runs unchanged: its npm name and pinned version. */
export interface PeerLibrary {
  readonly packageName: string;
  readonly version: string;
}

/** The library peers, by core name, in the order the table lists them. */
export const PEER_LIBRARIES: Readonly<Record<string, PeerLibrary>> = {
  'peer:mcp-client-v2': { packageName: '@modelcontextprotocol/client', version: '2.4.0' },
  'peer:openai-agents': { packageName: '@openai/agents-core', version: '0.20.0' },
  'peer:langchain-mcp': { packageName: '@langchain/mcp-adapters', version: '1.1.4' },
};

/**
 * One sentence per (peer, invariant) the peer was found to violate, keyed by core name and then
 * by verdict id (`I2`, ..., `CORE_FAILED`). Re-derive an entry from the shrunk trace when the
 * finding it explains changes.
 */
export const PEER_EXPLANATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
};

/** The explanation of `invariant` for `core`, or undefined when none is written. */
export function explanationOf(core: string, invariant: string): string | undefined {
  return PEER_EXPLANATIONS[core]?.[invariant];
}
