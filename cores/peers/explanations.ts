/**
 * What each peer gets wrong, as people wrote it down: for every invariant a peer violates in the
 * side-by-side table (`catsim prove --peers`, cli/commands/peers.ts), one sentence naming the
 * real defect, written from reading the shrunk trace of its first failing round (`catsim replay
 * --plan ... --core peer:NAME`) and the library's shipped source. Data, not code: the command
 * prints the sentence beside the finding, or "no explanation written yet" when there is none, and
 * test/peers/explanations.test.ts lists the findings that lack one, so none goes stale unnoticed.
 *
 * The npm package and version each library peer runs are in the peer table (index.ts), re-exported
 * here for the side-by-side table's preamble.
 */

/** Printed in place of an explanation nobody has written yet. */
export const NO_EXPLANATION = 'no explanation written yet';

/** The library peers' packages and versions live in the one peer table (index.ts). */
export { PEER_LIBRARIES, type PeerLibrary } from './index.ts';

/**
 * What every peer loses across a host restart (F18, in the default scenario since issue 27.4): a
 * library keeps its tool list in process memory only, never on the host's disk.
 */
const RESTART_LOSSES = {
  I10: 'It keeps its tool list in process memory only, so after a host restart (F18) the new process lists again and its list is numbered generation 1 again: one number for two snapshots (GENERATION_REPEATED).',
  I15: 'It keeps its tool list in process memory only, so after a host restart (F18) the new process has lost the list it used before the crash and starts again from generation 1 (COMMITTED_PUBLISH_LOST).',
} as const;

/**
 * One sentence per (peer, invariant) the peer was found to violate, keyed by core name and then
 * by verdict id (`I2`, ..., `CORE_FAILED`). Re-derive an entry from the shrunk trace when the
 * finding it explains changes.
 */
export const PEER_EXPLANATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'peer:sdk-autorefresh': {
    ...RESTART_LOSSES,
    I2: 'The 1.x `Client.listTools()` its auto-refresh calls reads page 1 only, so a multi-page catalog is shown cut after its first page, whose next cursor is never followed (CHAIN_BROKEN).',
    I5: 'It runs no content checks, so both members of a planted duplicate name (two `list_issues_s0t` with different schemas) are shown as usable tools.',
    I12: 'It has no admission gate, so the probe calls a correct host must admit never get a gate decision (PROBE_NOT_DECIDED), and its first-page list never converges to the whole catalog.',
    I18: 'Its auto-refresh re-lists only after a debounce that each further `list_changed` resets, and holds no call meanwhile, so calls chosen from the old list leave before the server has answered a fresh `tools/list` (CALL_BEFORE_RELIST), during a burst with no re-list at all.',
    I19: 'Its auto-refresh re-lists `debounceMs` (300 by default) after the last `list_changed`, since each one clears the timer, so during a burst (the shrunk plan: 120 notifications, one every 6 ms from t=815 to t=1529) the server answers the fresh `tools/list` only at t=1830, past the 440 ms bound of the first 96 (REFRESH_STARVED).',
    I9: "It has no admission gate and the SDK's `callTool` checks no name against the list, so a name the model guessed (F17; the shrunk plan: `write_file`, in acme.ops's view, while globex.dev was listed no tools) is sent, and the server refuses it only for want of a lease (UNDISCLOSED_TOOL_SENT, twice).",
  },
  'peer:list-once': {
    ...RESTART_LOSSES,
    I2: 'It reads no revision and, listing once per session, ignores the `list_changed` sent between its two pages, so the list it shows mixes revisions 240 and 241 (MIXED_REVISIONS).',
    I5: 'It runs no content checks, so a planted defect (`write_file_s0d0`, whose schema has a `$ref` that resolves to nothing) is shown as a usable tool.',
    I12: 'It has no admission gate, so the probe calls a correct host must admit never get a gate decision (PROBE_NOT_DECIDED), and it lists once per session, so a later change is never seen.',
    I13: "It has no loop detection, so a repeated cursor is requested again and again (CURSOR_REQUESTED_TWICE) until its own 64-page stop, past the scenario's 32-page bound.",
    I18: 'It lists once per session and ignores `list_changed`, so every call after a notification leaves from the old list, with no fresh `tools/list` ever asked for (CALL_BEFORE_RELIST).',
    I19: "It lists once per session and ignores `list_changed`, so after a notification the server answers no fresh `tools/list` at all (REFRESH_STARVED for each of the shrunk plan's 120 notifications, t=815 to t=1529).",
    I9: "It has no admission gate and calls by name whatever it is asked, so a name the model guessed (F17; the shrunk plan: `write_file`, in acme.ops's view, while globex.dev was listed no tools) is sent, and the server refuses it only for want of a lease (UNDISCLOSED_TOOL_SENT, twice).",
    I27: 'It applies no whole-catalog limit, so a catalog of 298,747 bytes of descriptors, over `catalogBytesMax` 262,144, is shown whole at every disclosure.',
  },
  'peer:mcp-client-v2': {
    ...RESTART_LOSSES,
    I2: "A repeated cursor whose page repeats the one before stops `listTools()`'s walk silently, and the partial list (2 of 3 tools, its last page still with a next cursor) is returned as the whole list (CHAIN_BROKEN, TOOLS_MISMATCH); its response cache stores it but, with the default `defaultCacheTtlMs` 0, never serves it again, so the next `listTools()` walks anew.",
    I5: 'It runs no content checks, so a planted defect (`write_file_s0d0`, whose schema has a `$ref` that resolves to nothing) is listed as a usable tool.',
    I12: 'It has no admission gate, so the probe calls a correct host must admit never get a gate decision (PROBE_NOT_DECIDED), and it refreshes only on a delivered `list_changed`.',
    I13: "Its loop check stops a walk only once a repeated cursor's page repeats the one before, so the repeated cursor is requested a second time (CURSOR_REQUESTED_TWICE) before the walk stops and its partial list is returned.",
    I18: 'Its `listChanged` handler re-lists only after `debounceMs` (300, reset by each further notification) and holds no call meanwhile, so calls chosen from the old list leave before the server has answered a fresh `tools/list` (CALL_BEFORE_RELIST), during a burst with no re-list at all.',
    I19: 'Its `listChanged` handler re-lists `debounceMs` (300 by default) after the last `list_changed`, since each one clears the timer, so during a burst (the shrunk plan: 120 notifications, one every 6 ms from t=815 to t=1529) the server answers the fresh `tools/list` only at t=1830, past the 440 ms bound (max(listChangedDelayMs, retryBackoffMsMax) + latencyMsMax) of the first 96 (REFRESH_STARVED); a lone notification is re-listed within it, 300 ms plus a link latency after.',
    I9: "It has no admission gate and `callTool` reads its cached list only to validate output, never to refuse a name, so a name the model guessed (F17; the shrunk plan: `write_file`, in acme.ops's view, while globex.dev was listed no tools) is sent, and the server refuses it only for want of a lease (UNDISCLOSED_TOOL_SENT, twice).",
    I27: 'It applies no whole-catalog limit, so a catalog of 298,747 bytes of descriptors, over `catalogBytesMax` 262,144, is listed and shown whole.',
  },
  'peer:openai-agents': {
    ...RESTART_LOSSES,
    I2: '`listAllMcpTools` reads no revision and installs no `list_changed` handler, so a change between two pages yields a list mixing revisions 240 and 241 (MIXED_REVISIONS), which `cacheToolsList` keeps for every later turn.',
    I5: 'It runs no content checks, so a planted defect (`write_file_s0d0`, whose schema has a `$ref` that resolves to nothing) becomes a function tool.',
    I12: 'It has no admission gate, so the probe calls a correct host must admit never get a gate decision (PROBE_NOT_DECIDED), and with `cacheToolsList` the first list is served at every turn.',
    I13: "On never-ending cursors it walks up to `maxListPages` 64, past the scenario's 32-page bound (PAGE_LIMIT_EXCEEDED), throws, caches nothing and walks again at the next turn.",
    I18: 'It installs no `list_changed` handler and `cacheToolsList` serves the first list at every turn, so every call after a notification leaves from the old list, with no fresh `tools/list` ever asked for (CALL_BEFORE_RELIST).',
    I19: "It installs no `list_changed` handler and `cacheToolsList` keeps the first list, so after a notification the server answers no fresh `tools/list` at all (REFRESH_STARVED for each of the shrunk plan's 120 notifications, t=815 to t=1529).",
    I27: 'It applies no whole-catalog limit, so a catalog of 298,747 bytes of descriptors, over `catalogBytesMax` 262,144, is cached and offered to the agent at every turn.',
  },
  'peer:langchain-mcp': {
    ...RESTART_LOSSES,
    I2: '`loadMcpTools` reads no revision and installs no `list_changed` handler, so a change between its two pages yields a list mixing revisions 240 and 241 (MIXED_REVISIONS).',
    I5: 'It runs no content checks beyond simplifying schemas, so a planted defect (`write_file_s0d0`, whose schema has a `$ref` that resolves to nothing) becomes a tool.',
    I12: 'It has no admission gate, so the probe calls a correct host must admit never get a gate decision (PROBE_NOT_DECIDED), and it loads the tools once per connection.',
    I13: "It has neither a repeated-cursor check nor a page cap, so a cursor loop is requested again (CURSOR_REQUESTED_TWICE) and walked past the scenario's 32-page bound.",
    I18: 'It installs no `list_changed` handler and loads the tools once per connection, so every call after a notification leaves from the old list, with no fresh `tools/list` ever asked for (CALL_BEFORE_RELIST).',
    I19: "It installs no `list_changed` handler and loads the tools once per connection, so after a notification the server answers no fresh `tools/list` at all (REFRESH_STARVED for each of the shrunk plan's 120 notifications, t=815 to t=1529).",
    I27: 'It applies no whole-catalog limit, so a catalog of 298,747 bytes of descriptors, over `catalogBytesMax` 262,144, is loaded and shown whole.',
  },
};

/** The explanation of `invariant` for `core`, or undefined when none is written. */
export function explanationOf(core: string, invariant: string): string | undefined {
  return PEER_EXPLANATIONS[core]?.[invariant];
}
