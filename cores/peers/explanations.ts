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
 * What every peer's calls show under the lease convention of a host without a gate
 * (api/gateless-calls.ts, docs/PEERS.md): a call the library sends is its ADMIT, leased and
 * executed, so the oracle judges what the library sent. Read from the shrunk replays of
 * `peer:list-once` (I3: round 1, I7: round 1), `peer:sdk-autorefresh` (I7: round 3) and
 * `peer:langchain-mcp` (I8: round 13); each library's call path is described beside it.
 */
const SENT_UNCHECKED = {
  I3: "It has no admission gate and checks no human confirmation, so every write the model plans is sent and, with the testbed's lease, executed without one (the shrunk plan: `write_file_s0t` for globex.dev, plans with no confirmation; UNCONFIRMED_WRITE_EXECUTED).",
  I7: 'It knows nothing of policy, so a tool revoked for the audience is still sent long after the revocation (the shrunk plans: `book_room_s0l3` for globex.dev at t=6965, revoked by epoch 2 at t=1048; `send_email` for acme.ops, revoked at t=298, sent at t=1341; REVOKED_TOOL_ADMITTED).',
} as const;

/**
 * One sentence per (peer, invariant) the peer was found to violate, keyed by core name and then
 * by verdict id (`I2`, ..., `CORE_FAILED`). Re-derive an entry from the shrunk trace when the
 * finding it explains changes.
 */
export const PEER_EXPLANATIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'peer:sdk-autorefresh': {
    I39: "`Client.callTool` (SDK 1.32.2, dist/esm/client/index.js) sends `tools/call` with the name and arguments it is given and checks only the result against the cached output schema, so a run planned on a tool's old contract is sent after the auto-refresh listed the breaking one, and the server runs that (round 135 of seed 1 on the default scenario: the stale plan p0 of s0/acme.dev was made at t=461 from `get_metrics` 3b4318bef022; at t=1052 s0 added a required input while claiming 1.4.5 -> 1.4.6, the auto-refresh published generation 2 with f395bbb02f03 at t=1383, and p0's call at t=2105 executed f395bbb02f03; BREAKING_CONTRACT_EXECUTED).",
    ...RESTART_LOSSES,
    I2: 'The 1.x `Client.listTools()` its auto-refresh calls reads page 1 only, so a multi-page catalog is shown cut after its first page, whose next cursor is never followed (CHAIN_BROKEN).',
    I5: 'It runs no content checks, so both members of a planted duplicate name (two `list_issues_s0t` with different schemas) are shown as usable tools.',
    ...SENT_UNCHECKED,
    I8: "The SDK's `callTool` checks no name against the list, so a name the model guessed (F17; the shrunk plan: `write_file` for globex.dev) is sent although the generation it holds has no tool of that name (TOOL_NOT_IN_GENERATION).",
    I12: 'Its auto-refresh reads page 1 only, so its list of a multi-page catalog never converges to the whole catalog by the end of the round (NOT_CONVERGED).',
    I18: 'Its auto-refresh re-lists only after a debounce that each further `list_changed` resets, and holds no call meanwhile, so calls chosen from the old list leave before the server has answered a fresh `tools/list` (CALL_BEFORE_RELIST), during a burst with no re-list at all.',
    I19: 'Its auto-refresh re-lists `debounceMs` (300 by default) after the last `list_changed`, since each one clears the timer, so during a burst (the shrunk plan: one notification every 6 ms to t=1529, 94 of them delivered after the host restart at t=966) the server answers the fresh `tools/list` only at t=1830, past the 440 ms bound of the first 70 of those (t=971 to t=1385; REFRESH_STARVED).',
    I9: "It has no admission gate and the SDK's `callTool` checks no name against the list, so a name the model guessed (F17; the shrunk plan: `write_file` for globex.dev, never disclosed to it) is sent, and with the testbed's lease executed (UNDISCLOSED_TOOL_ADMITTED, UNDISCLOSED_TOOL_EXECUTED).",
    I33: "Its auto-refresh lists again only when a `list_changed` arrives and it never polls, so a change no notification carries is never read (round 14 of seed 1 on the default scenario: s0, a modern server behind a legacy-era gateway that drops every notification while declaring `tools.listChanged` (F29), changed globex.dev's view at t=913; no `list_changed` reached the core, a fresh list was due by t=1753, and the server answered no fresh `tools/list` for globex.dev after it; NOT_POLLED).",
  },
  'peer:list-once': {
    I39: "It calls a tool by name (`Client.callTool` sends only `name` and `arguments` in `tools/call`, dist/esm/client/index.js) and keeps no version of what a run was shown, so a run planned on a tool's old contract runs the breaking one the server serves now (round 94 of seed 1 on the default scenario: s0 ignores cursors (F5), so its one walk ran from t=41 to t=3015 and its generation 1 holds `merge_pull_request` twice, before and after the breaking change at t=797 (a removed property, claimed 1.9.8 -> 1.10.0); plan p16 of s0/acme.ops was made from the old descriptor 067723e37d8c and its call executed 3f61af15fdce; BREAKING_CONTRACT_EXECUTED).",
    ...RESTART_LOSSES,
    I2: 'It reads no revision and, listing once per session, ignores the `list_changed` sent between its two pages, so the list it shows mixes revisions 240 and 241 (MIXED_REVISIONS).',
    I5: 'It runs no content checks, so a planted defect (`write_file_s0d0`, whose schema has a `$ref` that resolves to nothing) is shown as a usable tool.',
    ...SENT_UNCHECKED,
    I8: 'It calls by name whatever it is asked, so a name the model guessed (F17; the shrunk plan: `write_file` for globex.dev) is sent although the generation it holds has no tool of that name (TOOL_NOT_IN_GENERATION).',
    I12: 'It lists once per session, so a change after its one walk is never seen and its list never converges (NOT_CONVERGED).',
    I13: "It has no loop detection, so a repeated cursor is requested again and again (CURSOR_REQUESTED_TWICE) until its own 64-page stop, past the scenario's 32-page bound.",
    I18: 'It lists once per session and ignores `list_changed`, so every call after a notification leaves from the old list, with no fresh `tools/list` ever asked for (CALL_BEFORE_RELIST).',
    I19: "It lists once per session and ignores `list_changed`, so after a notification the server answers no fresh `tools/list` at all (REFRESH_STARVED for each of the shrunk plan's 94 notifications delivered after the host restart at t=966, t=971 to t=1529; the earlier ones are met by the new boot's one walk).",
    I9: "It has no admission gate and calls by name whatever it is asked, so a name the model guessed (F17; the shrunk plan: `write_file` for globex.dev, never disclosed to it) is sent, and with the testbed's lease executed (UNDISCLOSED_TOOL_ADMITTED, UNDISCLOSED_TOOL_EXECUTED, seqs 18 and 21).",
    I27: 'It applies no whole-catalog limit, so a catalog of 298,747 bytes of descriptors, over `catalogBytesMax` 262,144, is shown whole at every disclosure.',
    I33: "It lists once per session and never again, so a change no notification carries (nor one that a notification would carry) is never read (round 14 of seed 1 on the default scenario: s0, a modern server behind a legacy-era gateway that drops every notification while declaring `tools.listChanged` (F29), changed globex.dev's view at t=913; no `list_changed` reached the core, a fresh list was due by t=1753, and the server answered no fresh `tools/list` for globex.dev after it; NOT_POLLED).",
  },
  'peer:mcp-client-v2': {
    I39: "`callTool` sends a name and arguments only, checked against nothing but its cached output schema, so a call planned from a tool's old contract is sent after its `listChanged` handler has listed the breaking one, and the server runs that (round 50 of seed 1 on the default scenario: s0 tightened `get_weather`'s enum while claiming 1.0.3 -> 1.0.4; plan p1 of s0/acme.dev was made from 9af58bc4cad9, generation 3 listed 45c5277e8d09, and the call sent after it executed 45c5277e8d09; BREAKING_CONTRACT_EXECUTED).",
    ...RESTART_LOSSES,
    I2: '`listTools()` reads no revision, so a change served between its pages yields a list mixing revisions 916 and 923 (the shrunk plan; MIXED_REVISIONS); and a repeated cursor whose page repeats the one before stops its walk silently, the partial list returned as the whole list (CHAIN_BROKEN, test/peers/mcp-client-v2.test.ts).',
    I5: 'It runs no content checks, so a planted defect (`write_file_s0d0`, whose schema has a `$ref` that resolves to nothing) is listed as a usable tool.',
    ...SENT_UNCHECKED,
    I8: '`callTool` sends any name it is given, so a name the model guessed (F17; the shrunk plan: `write_file` for globex.dev) is sent although the generation it holds has no tool of that name (TOOL_NOT_IN_GENERATION).',
    I12: "It lists once after connecting and again only when `notifications/tools/list_changed` arrives, and never reconnects, so after the server's identity rotates with no change to its tools it never lists again and nothing is published for the key at its new identity (the shrunk plan: one list at t=4 under fp:0c1487fa941dd9e5, rotated to fp:f25e65631eaa0515 at t=2800, no `tools/list` after it; NOT_PUBLISHED).",
    I13: "Its loop check stops a walk only once a repeated cursor's page repeats the one before, so the repeated cursor is requested a second time (CURSOR_REQUESTED_TWICE) before the walk stops and its partial list is returned.",
    I18: 'Its `listChanged` handler re-lists only after `debounceMs` (300, reset by each further notification) and holds no call meanwhile, so calls chosen from the old list leave before the server has answered a fresh `tools/list` (CALL_BEFORE_RELIST), during a burst with no re-list at all.',
    I19: 'Its `listChanged` handler re-lists `debounceMs` (300 by default) after the last `list_changed`, since each one clears the timer, so during a burst (the shrunk plan: one notification every 6 ms to t=1529, 94 of them delivered after the host restart at t=966) the server answers the fresh `tools/list` only at t=1830, past the 440 ms bound (max(listChangedDelayMs, retryBackoffMsMax) + latencyMsMax) of the first 70 of those (t=971 to t=1385; REFRESH_STARVED); a lone notification is re-listed within it, 300 ms plus a link latency after.',
    I9: "It has no admission gate and `callTool` reads its cached list only to validate output, never to refuse a name, so a name the model guessed (F17; the shrunk plan: `write_file` for globex.dev, never disclosed to it) is sent, and with the testbed's lease executed (UNDISCLOSED_TOOL_ADMITTED, UNDISCLOSED_TOOL_EXECUTED).",
    I27: 'It applies no whole-catalog limit, so a catalog of 298,747 bytes of descriptors, over `catalogBytesMax` 262,144, is listed and shown whole.',
    I33: "It lists once after connecting and again only when a `list_changed` reaches its `listChanged` handler, and never polls, so a change no notification carries is never read (round 14 of seed 1 on the default scenario: s0, a modern server behind a legacy-era gateway that drops every notification while declaring `tools.listChanged` (F29), changed globex.dev's view at t=913; no `list_changed` reached the core, a fresh list was due by t=1753, and the server answered no fresh `tools/list` for globex.dev after it; NOT_POLLED).",
  },
  'peer:mcp-client-v2-modern': {
    I39: "`callTool` sends a name and arguments only, checked against nothing but its cached output schema, so a call planned from a tool's old contract is sent after the client has listed the breaking one, and the server runs that (round 50 of seed 1 on the default scenario: s0 tightened `get_weather`'s enum while claiming 1.0.3 -> 1.0.4; plan p1 of s0/acme.dev was made from 9af58bc4cad9, generation 3 listed 45c5277e8d09, and the call sent after it executed 45c5277e8d09; BREAKING_CONTRACT_EXECUTED).",
    I2: "`listTools()` reads no revision, so a change served between its pages yields a list mixing two revisions (round 0 of scenarios/modern.json: 921 and 922; MIXED_REVISIONS); `_walkPages` keeps page 1's `cacheScope` for the aggregate and reads no other page's, so a list whose pages say `private` then `public` is shown whole (F24, round 10; SCOPE_MIXED, test/peers/mcp-client-v2-modern.test.ts); a repeated cursor whose page repeats the one before ends the walk silently (CHAIN_BROKEN, round 2); and a list served from the shared store's public slot is another audience's walk (PAGE_FOREIGN, round 73).",
    I4: "`_serveFromCache` serves a fresh `public` entry from the store's public slot (`[serverIdentity, '']`) to every client of the same server whatever its `cachePartition`, so when a server marks a list that varies by audience `public` (F25) the next client to connect shows another tenant's tools without a request (round 73 of scenarios/modern.json: globex.dev's `purge_cache_s0`, walked at t=45 with ttlMs 1700, shown to acme.ops at t=64 and acme.dev at t=86; FOREIGN_TOOL, FOREIGN_PAGES).",
    I5: 'It runs no content checks, so a planted defect (round 0 of scenarios/modern.json: `deploy_service_s0d1`, an OVERSIZED_DESCRIPTOR) is listed as a usable tool.',
    I3: "It has no admission gate and checks no human confirmation, so every write the model plans is sent and, with the testbed's lease, executed without one (round 1 of scenarios/modern.json: `write_file_s0t` for globex.dev, plan p1 with no confirmation; UNCONFIRMED_WRITE_EXECUTED).",
    I7: 'It knows nothing of policy, so a tool revoked for the audience is still sent long after the revocation (round 1 of scenarios/modern.json: `book_room_s0l3` for globex.dev at t=2000, revoked by epoch 2 at t=1048; REVOKED_TOOL_ADMITTED).',
    I8: '`callTool` sends any name it is given, so a name the model guessed (F17; round 0 of scenarios/modern.json: `move_file` for globex.dev) is sent although the generation it holds has no tool of that name (TOOL_NOT_IN_GENERATION).',
    I9: "It has no admission gate and `callTool` reads its cached list only to validate output, never to refuse a name, so a name the model guessed (F17; round 0 of scenarios/modern.json: `move_file` for globex.dev, never disclosed to it) is sent, and with the testbed's lease executed (UNDISCLOSED_TOOL_ADMITTED, UNDISCLOSED_TOOL_EXECUTED).",
    I10: 'It keeps its tool list and its response cache in process memory only, so after a host restart (F18) the new process lists again and its list is numbered generation 1 again: one number for two snapshots (GENERATION_REPEATED).',
    I12: "It lists once after connecting and again only when a `list_changed` arrives (on a modern connection only on the `subscriptions/listen` stream `connect` opens when the server declares `tools.listChanged`), and never reconnects, so after the server's identity rotates with no change to its tools it never lists again and nothing is published for the key at its new identity (round 4 of scenarios/modern.json: s1 rotated to fp:f25e65631eaa0515 at t=2800; NOT_PUBLISHED).",
    I13: "Its loop check stops a walk only once a repeated cursor's page repeats the one before, so the repeated cursor is requested a second time (CURSOR_REQUESTED_TWICE, round 2 of scenarios/modern.json), and a cursor cycle whose pages differ is walked up to `listMaxPages` (64), past the scenario's 32-page bound (PAGE_LIMIT_EXCEEDED, round 6).",
    I15: 'It keeps its tool list and its response cache in process memory only, so after a host restart (F18) the new process has lost the list it used before the crash and starts again from generation 1 (COMMITTED_PUBLISH_LOST).',
    I18: 'Its `listChanged` handler (fed by the `subscriptions/listen` stream on a modern connection, by unsolicited notifications on a legacy one) re-lists only after `debounceMs` (300, reset by each further notification) and holds no call meanwhile, and `_setupListChangedHandlers` installs no handler at all for a server that does not declare `tools.listChanged`, so calls chosen from the old list leave before the server has answered a fresh `tools/list` (round 0 of scenarios/modern.json: s0 declares no `listChanged`, `get_weather` for globex.dev sent at t=403 after a `list_changed` at t=377; CALL_BEFORE_RELIST).',
    I19: '`_setupListChangedHandlers` installs no handler for a server that does not declare `tools.listChanged`, so its `list_changed` notifications are ignored and a fresh list comes only from a walk made for another reason (round 0 of scenarios/modern.json: s0 declares no `listChanged`; `list_changed` for acme.dev at t=373, 376 and 380, a fresh list due by t=813, and the server answered one only at t=1015, the first walk of the host booted again at t=966; REFRESH_STARVED); where the server declares it, the handler re-lists `debounceMs` (300) after the last of a burst, since each notification clears the timer.',
    I27: 'It applies no whole-catalog limit, so a catalog over `catalogBytesMax` (round 0 of scenarios/modern.json: 300,560 bytes of descriptors, over 262,144) is listed and shown whole.',
    I33: "It lists again only when a `list_changed` arrives and never reconnects or polls, so a change no notification carries is never read (round 4 of seed 1 on the default scenario: s1, a modern server over Streamable HTTP, opens acme.ops's session with no `tools.listChanged`, cuts it at t=1333, and changes acme.ops's view at t=1542 and t=1567; a fresh list was due by t=2382, and the server answered no `tools/list` for acme.ops after it; NOT_POLLED).",
  },
  'peer:openai-agents': {
    ...RESTART_LOSSES,
    I2: '`listAllMcpTools` reads no revision and installs no `list_changed` handler, so a change between two pages yields a list mixing revisions 240 and 241 (MIXED_REVISIONS), which `cacheToolsList` keeps for every later turn.',
    I5: 'It runs no content checks, so a planted defect (`write_file_s0d0`, whose schema has a `$ref` that resolves to nothing) becomes a function tool.',
    ...SENT_UNCHECKED,
    I8: "The runner's function tool of that name is called with no descriptor compared at call time, and `cacheToolsList` keeps the first list, so a plan made from a descriptor the server has since changed is sent (STALE_PLAN_ADMITTED).",
    I12: 'With `cacheToolsList` the first list is served at every turn, so a later change is never shown and its list never converges (NOT_CONVERGED).',
    I13: "On never-ending cursors it walks up to `maxListPages` 64, past the scenario's 32-page bound (PAGE_LIMIT_EXCEEDED), throws, caches nothing and walks again at the next turn.",
    I18: 'It installs no `list_changed` handler and `cacheToolsList` serves the first list at every turn, so every call after a notification leaves from the old list, with no fresh `tools/list` ever asked for (CALL_BEFORE_RELIST).',
    I19: "It installs no `list_changed` handler and `cacheToolsList` keeps the first list, so after a notification the server answers no fresh `tools/list` at all (REFRESH_STARVED for each of the shrunk plan's 94 notifications delivered after the host restart at t=966, t=971 to t=1529; the earlier ones are met by the new boot's first walk).",
    I27: 'It applies no whole-catalog limit, so a catalog of 298,747 bytes of descriptors, over `catalogBytesMax` 262,144, is cached and offered to the agent at every turn.',
    I32: '`connect()` builds the v2 `Client` with `versionNegotiation` and `listMaxPages` only, no `listChanged` option, and on a 2026-07-28 connection that client opens `subscriptions/listen` only for a `listChanged` configuration (`_listChangedConfig` in `connect`, @modelcontextprotocol/client dist/public-CvV4ZHkX.mjs), so no modern connection carries a listen (round 1 of seed 1 on the default scenario: s0, a modern server declaring `tools.listChanged`, connections 0 and 1 of acme.dev and globex.dev, opened at t=3 and t=1054; LISTEN_NOT_SENT).',
    I33: "It opens no `subscriptions/listen` (I32), installs no `list_changed` handler and, with `cacheToolsList`, never lists again, so a change of a modern server's list is never read (round 3 of seed 1 on the default scenario: s1 over Streamable HTTP changed globex.dev's view at t=30, no `list_changed` reached the core, a fresh list was due by t=897, and the server answered no fresh `tools/list` for globex.dev after it; NOT_POLLED).",
  },
  'peer:langchain-mcp': {
    ...RESTART_LOSSES,
    I2: '`loadMcpTools` reads no revision and installs no `list_changed` handler, so a change between its two pages yields a list mixing revisions 240 and 241 (MIXED_REVISIONS).',
    I5: 'It runs no content checks beyond simplifying schemas, so a planted defect (`write_file_s0d0`, whose schema has a `$ref` that resolves to nothing) becomes a tool.',
    ...SENT_UNCHECKED,
    I8: 'The LangChain tool of that name is invoked with no descriptor compared at call time, and the tools are loaded once per connection, so a plan made from a descriptor the server has since changed is sent (the shrunk plan: `create_issue`, plan digest e1de4282c391, the list holding 210029dbc256; STALE_PLAN_ADMITTED).',
    I12: 'It loads the tools once per connection, so a later change is never shown and its list never converges (NOT_CONVERGED).',
    I13: "It has neither a repeated-cursor check nor a page cap, so a cursor loop is requested again (CURSOR_REQUESTED_TWICE) and walked past the scenario's 32-page bound.",
    I18: 'It installs no `list_changed` handler and loads the tools once per connection, so every call after a notification leaves from the old list, with no fresh `tools/list` ever asked for (CALL_BEFORE_RELIST).',
    I19: "It installs no `list_changed` handler and loads the tools once per connection, so after a notification the server answers no fresh `tools/list` at all (REFRESH_STARVED for each of the shrunk plan's 94 notifications delivered after the host restart at t=966, t=971 to t=1529; the earlier ones are met by the new boot's one load).",
    I27: 'It applies no whole-catalog limit, so a catalog of 298,747 bytes of descriptors, over `catalogBytesMax` 262,144, is loaded and shown whole.',
    I33: "It loads the tools once per connection and installs no `list_changed` handler, so no change is read after the load, and one no notification carries is not either (round 14 of seed 1 on the default scenario: s0, a modern server behind a legacy-era gateway that drops every notification while declaring `tools.listChanged` (F29), changed globex.dev's view at t=913; no `list_changed` reached the core, a fresh list was due by t=1753, and the server answered no fresh `tools/list` for globex.dev after it; NOT_POLLED).",
  },
  'peer:ai-sdk-mcp': {
    I39: "Each tool's `execute` calls `callTool({ name, arguments })` (dist/index.js) with no descriptor compared against the one the plan was made from, so a plan made before a breaking change runs the new contract the turn's fresh list holds (round 32 of seed 1 on the default scenario: s0 added a required input to `get_metrics` while claiming 1.9.2 -> 1.9.3; plan p1 of s0/acme.ops was made from b428a8f68d9a, the turn's walk published generation 2 with 589a06f46cc1, and the call executed 589a06f46cc1; BREAKING_CONTRACT_EXECUTED).",
    ...RESTART_LOSSES,
    ...SENT_UNCHECKED,
    I2: '`tools()` reads no revision, so a change served between its pages yields a list mixing revisions 916 and 922 (MIXED_REVISIONS); the change shifted the catalog, so `purge_cache_s0` was served on both pages, and `toolsFromDefinitions` builds an object keyed by name, which keeps one of the two: 2 tools shown of the 3 served (TOOLS_MISMATCH).',
    I5: 'It runs no content checks (`toolsFromDefinitions` wraps every definition in `dynamicTool` with `jsonSchema(...)`), so a planted defect (`write_file_s0d0`, whose schema has a `$ref` that resolves to nothing) becomes a tool at every turn.',
    I8: "The turn's tool of that name is executed with no descriptor compared against the plan, so a plan made from a descriptor the server has since changed is sent (STALE_PLAN_ADMITTED).",
    I9: "Each turn's `tools()` walks anew and the loop calls any name the turn's tools hold, so a tool that reached its fresh list after the session's last disclosure (the shrunk plan: `search_nodes_v7` for acme.ops, after a `list_changed` at t=2912) is called without ever having been disclosed (UNDISCLOSED_TOOL_ADMITTED).",
    I12: 'It never reconnects: once its connection is closed the client marks itself closed and every later request rejects ("Attempted to send a request from a closed client"), so no turn\'s `tools()` lists again; in the shrunk plan s1 cut acme.ops\'s connection at t=1333 and rotated its identity at t=2800, and nothing was ever published for the key at the new identity (NOT_PUBLISHED).',
    I13: "`tools()` loops `while (definitions.nextCursor != null)` with no page cap and no repeated-cursor check, so a cursor loop is requested again (CURSOR_REQUESTED_TWICE) and walked past the scenario's 32-page bound; an empty-string cursor is followed like any other.",
    I18: 'It handles no notification (a `list_changed` is an "Unsupported message type" handed to `onUncaughtError`), so a call the model picks from the last turn\'s tools leaves before the server has answered a fresh `tools/list` (CALL_BEFORE_RELIST); it lists again only at its next turn.',
    I19: 'It handles no `list_changed`: its `onmessage` hands any message with a method and no id to `onError` as an "Unsupported message type" error, which reaches `onUncaughtError` (none is set here) and nothing else, so it lists again only at its next turn (each disclosure here) and a notification is followed by a fresh `tools/list` only when a turn happens to come: in the shrunk plan s1 changed acme.ops\'s catalog at t=2827, its one `list_changed` reached the client at t=2828 (a fresh list due by t=3268), and the next turn was the probe disclosure at t=6960, so the server answered the fresh `tools/list` only at t=6961 (REFRESH_STARVED).',
    I27: 'It applies no whole-catalog limit, so a catalog of 298,747 bytes of descriptors, over `catalogBytesMax` 262,144, is turned into tools at every turn.',
    I32: "It speaks 2026-07-28 through protocol discovery (`server/discover` in `tryProtocolDiscovery`, dist/index.js; the adapter's transport opts in as the library's `StdioMCPTransport` does) but nothing in its client sends `subscriptions/listen`, so no modern connection carries a listen (round 1 of seed 1 on the default scenario: s0, a modern server declaring `tools.listChanged`, connections 0 of acme.dev and globex.dev opened at t=3; LISTEN_NOT_SENT).",
    I33: "It handles no notification and opens no `subscriptions/listen` (I32), and lists only at a turn (each disclosure here), so a change of a modern server's list is read only when a turn happens to come (round 3 of seed 1 on the default scenario: s0, a modern server over stdio, restarted at t=2402 under fp:f0efb9e0f3b1c815 and changed acme.dev's view at t=2716; a fresh list was due by t=3556, and the next turn's walk was served at t=6961; NOT_POLLED).",
  },
};

/** The explanation of `invariant` for `core`, or undefined when none is written. */
export function explanationOf(core: string, invariant: string): string | undefined {
  return PEER_EXPLANATIONS[core]?.[invariant];
}
