/**
 * The events of `catsim.trace.v1`, declared once: the simulator writes them (world events), a
 * core emits them (core events, its observations), the oracle reads them, and docs/TRACE.md's
 * field tables are generated from this file (`npx tsx contract/scripts/trace-doc.ts --write`).
 * The TypeScript types (types.ts) are inferred from these field tables, and the validation every
 * reader applies (event-problem.ts, header-problem.ts) runs them.
 *
 * Each event lists its own fields in the order they are written, after `seq`, `t`, `src` and
 * `type`. Fields are required unless marked optional (added to the format later; older traces lack
 * them), objects are strict (a field not listed here is refused), and codes come from the closed
 * sets of codes.ts.
 */
import {
  anyJson,
  arrayOf,
  bool,
  boolOrNull,
  catalogKey,
  digest,
  digestOrNull,
  digests,
  field,
  int,
  nat,
  natOrNull,
  nullable,
  objectOf,
  oneOf,
  optional,
  recordOf,
  str,
  strOrNull,
  strings,
} from '../internal/fields.ts';
import { eventOf } from '../internal/event.ts';
import {
  BACKUP_CONTRACTS,
  BACKUP_DELIVERIES,
  CALL_OUTCOMES,
  CONTRACT_CHANGE_CLASSES,
  OUTPUT_CHECKS,
  CORE_CALLS,
  CORE_FAILURE_REASONS,
  DISCLOSURE_REFUSALS,
  EFFECT_CLASSES,
  GATE_DECISIONS,
  HOST_CRASH_POINTS,
  MODEL_ANSWERS,
  MODEL_APIS,
  PLAN_KINDS,
  PLANTED_DEFECTS,
  POLICY_CHANNELS,
  LISTEN_ENDINGS,
  PUBLISH_STATUSES,
  REQUEST_SETTLEMENTS,
  ROLLBACK_DELIVERIES,
  EMERGENCY_DISABLE_DELIVERIES,
  LIFECYCLE_STEPS,
  REMOVAL_ANSWERS,
  ROLLBACK_TRIGGER_KINDS,
  ROUND_END_REASONS,
  ROUND_STATUSES,
  SCAN_END_REASONS,
  SCAN_END_STATES,
  SERVER_CALL_REFUSALS,
  SURFACE_CHECKS,
  SURFACE_FIELDS,
  SURFACE_HOOKS,
  SURFACE_LATE_STEPS,
  SURFACE_LIMITS,
  SURFACE_REFUSALS,
  SURFACE_STAGES,
  TOOL_VERDICTS,
} from './codes.ts';

const discovery = (meaning: string, judgedBy?: string) =>
  ({ section: 'discovery', meaning, ...(judgedBy === undefined ? {} : { judgedBy }) }) as const;
const admission = (meaning: string, judgedBy?: string) =>
  ({ section: 'admission', meaning, ...(judgedBy === undefined ? {} : { judgedBy }) }) as const;
const surface = (meaning: string) => ({ section: 'surface', meaning }) as const;

/** Fields that recur; docs/TRACE.md says once what they mean. */
const server = str;
const audience = str;
const session = str;

/** One tool of a revision's view for an audience, in list order. */
const viewTool = objectOf({
  name: str,
  digest: field(digest, 'descriptor digest'),
  bytes: optional(
    field(
      nat,
      "UTF-8 length of the descriptor's compact JSON as served (SPEC section 5's measure, for I27); older traces lack it",
    ),
  ),
});

/** One page of a published snapshot, in cursor order. */
const publishedPage = objectOf({ cursorIn: strOrNull, cursorOut: strOrNull, pageDigest: digest });

/** One tool of a published snapshot. */
const publishedTool = objectOf({
  name: str,
  descriptorDigest: digest,
  verdict: field(oneOf(TOOL_VERDICTS, '`ok` or a quarantine reason'), 'see [Codes](#codes)'),
});

/** The snapshot that showed a receipt's tool to the session, or null. */
const receiptDisclosure = nullable(objectOf({ generation: nat, snapshotDigest: digest }));

/** The capability version a receipt names (SPEC section 9), or null. */
const receiptVersion = nullable(objectOf({ toolId: str, version: nat, manifestDigest: digest }));

/** World: a server (re)starts and presents `identity` from `t` on. */
const serverUp = eventOf('world', 'server_up', discovery('a server (re)starts and presents `identity`'), {
  server,
  identity: field(str, 'key fingerprint the connection presents'),
  boot: field(nat, '0, 1, ... per restart'),
  versioned: field(bool, 'pages carry `dev.catsim/catalogRevision`'),
  traits: field(
    strings,
    'persistent traits such as `"F5:cycle"`, `"F12"`; a trait whose name starts with `F5`, `F6`, `F13`, `F23` or `EQUIV` disqualifies the server from liveness',
  ),
});

/** World: from `t` on, `views` is the server's true catalog per audience. */
const revision = eventOf(
  'world',
  'revision',
  discovery("from `t` on, this is the server's true catalog per audience"),
  {
    server,
    revision: nat,
    views: field(
      recordOf(arrayOf(viewTool, '{"name", "digest", "bytes"}[]'), 'object', 'audience'),
      'audience `"tenant.role"` → array of `{"name","digest","bytes"}` in list order',
    ),
  },
);

/** World: a client of the core connected as `audience`; liveness (I12) is owed to these pairs. */
const sessionOpened = eventOf(
  'world',
  'session_opened',
  discovery(
    'a client of the core connected to the server as `audience` (after `initialize`); liveness (I12) is owed exactly to these (server, audience) pairs',
  ),
  {
    server,
    audience,
    identity: field(str, 'the identity the connection presents'),
    connection: optional(
      field(
        nat,
        "a modern-era (MCP 2026-07-28) session: this connection's ordinal among the connections the core opened to the server as `audience` (0, 1, ...; `listen_requested` names it); absent for a legacy session (and in older traces)",
      ),
    ),
    listChanged: optional(
      field(
        bool,
        'a modern-era session: whether the server declares `tools.listChanged` on this connection (then the core owes it a `subscriptions/listen`, I32); absent for a legacy session',
      ),
    ),
  },
);

/** World: the server answered one `tools/list` request with a page. */
const pageServed = eventOf('world', 'page_served', discovery('the server answered one `tools/list` request'), {
  server,
  audience,
  scanId: field(strOrNull, "the request's `dev.catsim/scanId`"),
  cursorIn: strOrNull,
  cursorOut: strOrNull,
  revision: field(nat, 'the true revision when served'),
  reported: field(natOrNull, 'the revision the page carried in `_meta`'),
  tools: field(digests, 'descriptor digests in page order'),
  pageDigest: digest,
  ttlMs: optional(
    field(nat, "a modern-era (2026-07-28) page's `ttlMs` as served, ms; absent on a legacy page (and in older traces)"),
  ),
  cacheScope: optional(
    field(
      oneOf(['public', 'private'] as const),
      "a modern-era page's `cacheScope` as served; absent on a legacy page (and in older traces)",
    ),
  ),
});

/** World: the server answered one `tools/list` request with a JSON-RPC error. */
const pageRefused = eventOf(
  'world',
  'page_refused',
  discovery('the server answered one `tools/list` request with an error'),
  {
    server,
    audience,
    scanId: strOrNull,
    cursorIn: strOrNull,
    code: field(int, 'JSON-RPC error code, e.g. -32602'),
  },
);

/** World: the plan generator planted a defective descriptor (for I5). */
const defectPlanted = eventOf(
  'world',
  'defect_planted',
  discovery(
    'the plan generator planted a defective descriptor (for I5); written once per digest at round start, before the first `revision`',
  ),
  {
    server,
    digest: field(digest, 'descriptor digest'),
    defect: oneOf(PLANTED_DEFECTS),
  },
);

/** World: the server presents a new identity from `t` on (F7, certificate rotation). */
const identityRotated = eventOf(
  'world',
  'identity_rotated',
  discovery(
    'the server presents a new identity from `t` on (F7, certificate rotation); it is also written as a `server_up` with the same boot',
  ),
  {
    server,
    identity: field(str, 'the new one'),
    boot: nat,
  },
);

/** World: the world cut the connection of the core's session (F15). */
const disconnected = eventOf(
  'world',
  'disconnected',
  discovery('the world cut the connection of that session (F15); the core may reconnect (a new `session_opened`)'),
  {
    server,
    audience,
  },
);

/** World: the planner asked the core for its catalog and was shown this generation. */
const disclosure = eventOf(
  'world',
  'disclosure',
  discovery("the simulator's planner asked the core for its catalog and was shown this generation"),
  {
    session,
    server,
    audience,
    key: catalogKey,
    generation: nat,
    snapshotDigest: digest,
    tools: field(digests, 'descriptor digests of the tools shown, in snapshot order'),
  },
);

/** World: the planner asked and the core showed nothing. */
const disclosureRefused = eventOf(
  'world',
  'disclosure_refused',
  discovery(
    'the planner asked and the core showed nothing; a (server, audience) the planner asked about (here or in a `disclosure`) is owed liveness (I12) like one a client of the core connected as',
  ),
  {
    session,
    server,
    audience,
    code: field(oneOf(DISCLOSURE_REFUSALS), "`CORE_FAILED` when the core's `disclose` failed (see `core_failed`)"),
  },
);

/** One tool of a model request, as the host named it, and what it maps to (black-box mode). */
const modelTool = objectOf({
  name: field(str, "the host's name of the tool"),
  digest: field(digest, 'sha256 (hex) of the JSON of the tools-array item as sent'),
  entry: field(
    strOrNull,
    "the case entry (server or tenant twin) the name maps to by the name rule, or null: the host's own tool, not judged",
  ),
  tool: field(strOrNull, 'the MCP tool name it maps to, or null'),
});

/**
 * World (black-box mode, `--model-endpoint`): the host sent one request to catsim's model endpoint.
 * Written when catsim answers it; the `disclosure` events of its mapped tools were written when it
 * arrived (the judgement reads those).
 */
const modelRequest = eventOf(
  'world',
  'model_request',
  discovery(
    "black-box mode with `--model-endpoint` (docs/BLACK-BOX.md, LLM hosts): the host sent one request to catsim's model endpoint, written when catsim answered it; its `tools` (what the host shows its model) were written, per case entry, as `disclosure` events when it arrived, and those are judged (I4)",
  ),
  {
    n: field(nat, '0-based arrival order'),
    api: field(nullable(oneOf(MODEL_APIS)), 'the API shape, or null for a path that is none'),
    method: str,
    path: str,
    status: field(nat, 'the HTTP status catsim answered'),
    stream: field(bool, 'whether the request asked for a streamed answer (`stream: true`); an error is never streamed'),
    tools: field(arrayOf(modelTool, '{"name", "digest", "entry", "tool"}[]'), "the request's tools array, in order"),
    toolResult: field(
      nullable(objectOf({ seq: nat, isError: bool, text: field(str, 'cut to 200 characters') })),
      'the tool result the request carried for the call step answered before it, or null',
    ),
    answer: field(
      objectOf({
        kind: oneOf(MODEL_ANSWERS),
        seq: field(natOrNull, 'the step answered (null for text after the end)'),
        name: field(strOrNull, "for `tool_call`: the host's name of the tool called"),
        message: field(strOrNull, 'for `error`: the one-line message'),
      }),
      'what catsim answered',
    ),
  },
);

/** World: the server emitted `notifications/tools/list_changed`. */
const notificationSent = eventOf(
  'world',
  'notification_sent',
  discovery('the server emitted `notifications/tools/list_changed`'),
  {
    server,
    audience,
    delivered: field(bool, 'false when the fault plan drops it'),
  },
);

/** World: a `list_changed` reached the core's client. */
const notificationDelivered = eventOf(
  'world',
  'notification_delivered',
  discovery(
    "a `notifications/tools/list_changed` reached the core's client on this session's connection, after its `session_opened` (one that arrives during the initialize handshake is not written: no handler of the core is listening yet); from then on no call of that key may leave the core before a scan started after it has ended (I18), and such a scan must start soon (I19)",
  ),
  {
    server,
    audience,
  },
);

/** World: a modern-era server acknowledged a `subscriptions/listen` stream and the core's client got the acknowledgement. */
const listenAcknowledged = eventOf(
  'world',
  'listen_acknowledged',
  discovery(
    "a modern-era (MCP 2026-07-28) server's `notifications/subscriptions/acknowledged` reached the core's client: from then on the server's `list_changed` for that session travels on this stream, stamped with its subscription id (a modern server pushes nothing to a session with no stream open)",
  ),
  {
    server,
    audience,
    subscriptionId: field(str, 'the JSON-RPC id of the `subscriptions/listen` request, as a string'),
    toolsListChanged: field(bool, 'whether the acknowledged filter honours `toolsListChanged`'),
  },
);

/** World: the core's client sent a `subscriptions/listen` request on one connection of a modern-era session. */
const listenRequested = eventOf(
  'world',
  'listen_requested',
  discovery(
    "the core's client put a `subscriptions/listen` request on a connection of a modern-era (MCP 2026-07-28) session (written when it was sent, before the link decides its fate): on stdio the client MUST send one on every connection, the first and each after a reconnect, since the server holds no subscription state (I32)",
  ),
  {
    server,
    audience,
    connection: field(nat, "the connection's ordinal, as its `session_opened` names it"),
    subscriptionId: field(str, 'the JSON-RPC id of the request, as a string'),
  },
);

/** World: a modern-era server stopped delivering on an acknowledged listen stream without ending it (F27). */
const listenSilenced = eventOf(
  'world',
  'listen_silenced',
  discovery(
    "a modern-era server stops delivering `list_changed` on the acknowledged `subscriptions/listen` streams of this session's connection without ending them (F27): from `t` on its changes reach that connection nowhere (`notification_sent` says `delivered: false`), and the core can learn of them only by listing again",
  ),
  {
    server,
    audience,
    subscriptionId: str,
  },
);

/** World: an acknowledged `subscriptions/listen` stream ended. */
const listenEnded = eventOf(
  'world',
  'listen_ended',
  discovery(
    'an acknowledged `subscriptions/listen` stream of a modern-era session ended: its result reached the core, or its connection was cut',
  ),
  {
    server,
    audience,
    subscriptionId: str,
    how: field(oneOf(LISTEN_ENDINGS), '`complete` or `disconnected`'),
  },
);

/** World: `t` is T_heal. */
const quiet = eventOf('world', 'quiet', discovery('`t` = T_heal: faults stop, the quiet tail begins'), {});

/** World: the round is over. */
const roundEnd = eventOf(
  'world',
  'round_end',
  discovery('the round is over; always the last event, and the only `round_end`'),
  {
    status: oneOf(ROUND_STATUSES),
    reason: oneOf(ROUND_END_REASONS),
  },
);

/** World: the core failed to answer the world (docs/CORE-API.md). */
const coreFailed = eventOf(
  'world',
  'core_failed',
  discovery(
    'the core failed to answer the world (docs/CORE-API.md): a call threw, `call` rejected, an answer was outside the core API, or a promise it left unhandled rejected; the round goes on without that answer; judged `CORE_FAILED`',
  ),
  {
    during: oneOf(CORE_CALLS),
    reason: oneOf(CORE_FAILURE_REASONS),
    error: field(str, "the error's name and first message line, at most 200 characters"),
  },
);

/** A publish as the host's disk holds it (F18): a catalog key's pointer and the snapshot it names. */
const diskPointer = objectOf({ key: catalogKey, generation: nat, snapshotDigest: digest });

/** World: the world killed the host process (F18). */
const hostCrashed = eventOf(
  'world',
  'host_crashed',
  discovery(
    'the world killed the host process (F18): from `t` on nothing of boot `boot` runs, writes to its disk or reaches the trace; its connections are cut; a new boot follows (`host_restarted`)',
  ),
  {
    boot: field(nat, 'the boot that died: 0, 1, ... per restart'),
    point: field(oneOf(HOST_CRASH_POINTS), 'where it died; see [Codes](#codes)'),
    cut: field(
      nullable(diskPointer),
      'for `in_publish`: the publish `{"key", "generation", "snapshotDigest"}` whose transaction the crash cut (never committed); else null',
    ),
  },
);

/** World: a new core instance started on the same disk (F18). */
const hostRestarted = eventOf(
  'world',
  'host_restarted',
  discovery('a new core instance started from the same durable store (F18); it is offered every catalog key again'),
  {
    boot: field(nat, 'the new boot'),
    committed: field(
      arrayOf(diskPointer, '{"key", "generation", "snapshotDigest"}[]'),
      "every active pointer the reference registry's tables on the disk hold as the boot starts, by key; empty for a core with its own schema. A diagnostic: no invariant reads it (I15-I17 judge what the boots reported and did)",
    ),
    receipts: field(
      strings,
      "lease ids of every call receipt the reference registry's tables on the disk hold, in write order; a diagnostic like `committed`",
    ),
  },
);

/** Core: a scan (walk) of catalog key `key` began. */
const scanStarted = eventOf('core', 'scan_started', discovery('a scan (walk) began', 'I12, I13'), {
  key: catalogKey,
  scanId: str,
  expectedGeneration: field(nat, 'the generation the scan will compare-and-swap against, 0 when nothing is published'),
  policyEpoch: nat,
});

/** Core: the core accepted one page reply. */
const pageRead = eventOf(
  'core',
  'page_read',
  discovery('the core accepted one page reply; the world must have served that page to that scan before it', 'I13'),
  {
    scanId: str,
    cursorIn: strOrNull,
    cursorOut: strOrNull,
    revision: field(natOrNull, 'the revision the page carried, null for an unversioned source'),
    pageDigest: digest,
    toolCount: nat,
    recheck: field(bool, 'the final recheck of page 1'),
    ttlMs: optional(
      field(
        nat,
        "a modern-era (2026-07-28) page's `ttlMs` as the core read it (absent or negative: 0), ms; absent on a legacy page",
      ),
    ),
    cacheScope: optional(
      field(
        oneOf(['public', 'private'] as const),
        "a modern-era page's `cacheScope` as the core read it (absent or unknown: `private`); absent on a legacy page",
      ),
    ),
  },
);

/** Core: a scan reached its end state. */
const scanEnded = eventOf(
  'core',
  'scan_ended',
  discovery(
    "the scan reached its end state; QUARANTINED also stops the key's refresh loop until an operator restarts it",
    'I12, I13',
  ),
  {
    scanId: str,
    state: oneOf(SCAN_END_STATES),
    reason: field(oneOf(SCAN_END_REASONS, 'reason code'), '`OK` for the two good states; see [Codes](#codes)'),
  },
);

/** Core: a CAS step moved the active pointer of `key` to `generation`. */
const published = eventOf(
  'core',
  'published',
  discovery(
    'a CAS step moved the active pointer of `key` to `generation`',
    'I1, I2, I4, I5, I8, I9, I10, I11, I12, I21, I27, I28',
  ),
  {
    key: catalogKey,
    scanId: str,
    generation: nat,
    status: oneOf(PUBLISH_STATUSES),
    sourceRevision: field(natOrNull, 'the revision the snapshot is bound to, null when unversioned'),
    snapshotDigest: digest,
    pageRoot: digest,
    pages: field(arrayOf(publishedPage, '{"cursorIn", "cursorOut", "pageDigest"}[]'), 'in cursor order'),
    tools: field(
      arrayOf(publishedTool, '{"name", "descriptorDigest", "verdict"}[]'),
      '`verdict` is `"ok"` or the content check that quarantined the tool',
    ),
    expiresAt: field(nat, 'virtual ms after which the generation may no longer serve'),
    rolledBackFrom: optional(
      field(
        natOrNull,
        "a rollback republishes the content of that earlier generation, and its `scanId` is that generation's; older traces lack the field, read as null",
      ),
    ),
  },
);

/** Core: a publish lost the compare-and-swap race. */
const casConflict = eventOf(
  'core',
  'cas_conflict',
  discovery(
    'a publish lost the compare-and-swap race: `actualGeneration` is the generation the pointer held, and it is not `expectedGeneration`',
    'I10',
  ),
  {
    key: catalogKey,
    scanId: str,
    expectedGeneration: field(nat, 'the generation the publish expected to replace'),
    actualGeneration: field(nat, 'the generation active when it lost'),
  },
);

/** Core: `key` is DISABLED. */
const serverDisabled = eventOf(
  'core',
  'server_disabled',
  discovery(
    'no earlier generation qualified for a rollback: nothing is admitted or disclosed for `key` until a later `published`',
    'I11, I12, I29',
  ),
  {
    key: catalogKey,
    reason: field(str, 'why the rollback was asked for'),
  },
);

/** World: the trusted effect classes of the host's policy, by tool name. */
const effectPolicy = eventOf(
  'world',
  'effect_policy',
  admission(
    "the trusted effect classes the host's policy gives tools (the same for every server); a tool not listed is WRITE. Written once at round start",
  ),
  {
    classes: field(
      recordOf(oneOf(EFFECT_CLASSES), 'object', 'tool name'),
      'tool name → `READ`, `RESERVATION`, `WRITE` or `DESTRUCTIVE`',
    ),
  },
);

/** World: the policy service moved an audience's epoch (F8). */
const policyChanged = eventOf(
  'world',
  'policy_changed',
  admission(
    "the policy service moved an audience's epoch (F8); epoch 1 with the initial grants is written at round start",
  ),
  {
    audience,
    epoch: nat,
    grants: field(strings, 'tool names the audience holds from `t` on, sorted'),
    revoked: field(strings, 'names removed by this change'),
    granted: field(strings, 'names added'),
  },
);

/** World: the policy service pushed an epoch to the core. */
const policyPush = eventOf(
  'world',
  'policy_push',
  admission('the policy service pushed this epoch to the core; a delivered push reaches the core after its latency'),
  {
    audience,
    epoch: nat,
    delivered: field(bool, 'false when the push is lost'),
  },
);

/** World: an operator or monitor trigger asked the core to roll a key back (F19). */
const rollbackTriggered = eventOf(
  'world',
  'rollback_triggered',
  admission(
    'an operator or monitor trigger (F19: the missing-tool rate rose, or a privilege escalation) asked the core to roll catalog key `key` back; when `delivered`, the core must at once (after one policy poll) either publish a rollback (`rolledBackFrom`) to an earlier generation that is unexpired and discovered under the policy holding now, or DISABLE the key (`server_disabled`); from then on nothing is leased for the rolled-away generation (judged by I21, I28, I29)',
  ),
  {
    server,
    audience,
    key: field(catalogKey, 'the key of `audience` on the identity the server presents at `t`'),
    kind: field(oneOf(ROLLBACK_TRIGGER_KINDS), 'what the monitor saw; see [Codes](#codes)'),
    delivery: field(
      oneOf(ROLLBACK_DELIVERIES),
      '`unsupported`: the core has no `rollback` and is not judged on it; `host_down`: the host was dead (F18)',
    ),
  },
);

/** World: an operator emergency-disabled a tool (F26; ground truth for I30). */
const emergencyDisabled = eventOf(
  'world',
  'emergency_disabled',
  admission(
    'an operator emergency-disabled tool `tool` of `server` (F26, SPEC section 9); when `delivered`, no `call_sent` of that tool to that server may follow it in the trace, whatever version of the tool the server lists (judged by I30); calls that left before may finish',
  ),
  {
    server,
    identity: field(str, 'the identity the server presents at `t`'),
    tool: field(str, "the tool's name as the server lists it"),
    delivery: field(
      oneOf(EMERGENCY_DISABLE_DELIVERIES),
      '`unsupported`: the core has no `emergencyDisable` and is not judged on tool versions; `host_down`: the host was dead (F18)',
    ),
  },
);

/** World: an operator deprecated the versions of a tool a server lists (F31; ground truth for I34). */
const deprecationOrdered = eventOf(
  'world',
  'deprecation_ordered',
  admission(
    "an operator deprecated, at stage `no-new-binding`, the versions of tool `tool` that `server` lists now (F31, SPEC section 9): their descriptor digests; when `delivered`, no generation of that server's keys first disclosed after it may have a call of one of them admitted (a receipt naming that digest; judged by I34); bindings made before go on",
  ),
  {
    server,
    identity: field(str, 'the identity the server presents at `t`'),
    tool: field(str, "the tool's name as the server lists it"),
    descriptorDigests: field(
      digests,
      "the tool's descriptor digests in the server's views at `t`, sorted (empty: it lists none)",
    ),
    delivery: field(
      oneOf(EMERGENCY_DISABLE_DELIVERIES),
      '`unsupported`: the core has no `deprecate` and is not judged on it; `host_down`: the host was dead (F18)',
    ),
  },
);

/** World: an operator flipped or rolled back the production alias of a tool (F34; ground truth for I37). */
const aliasOrdered = eventOf(
  'world',
  'alias_ordered',
  admission(
    "an operator ordered the production alias of tool `tool` of `server` (F34, SPEC section 9): `set` points it at release `release` of the contract the server lists now (`descriptorDigest`; release 0 is the operator's manifest file as handed to the core, release 1 the same contract with the operator's change `change`), `rollback` back at its previous target; when `delivered`, a run (a session's calls from one disclosed generation) that started before keeps the version it bound, and runs started afterwards bind the new target, unless a `set` of a `breaking` change without `migration` is refused (judged by I37)",
  ),
  {
    server,
    identity: field(str, 'the identity the server presents at `t`'),
    tool: field(str, "the tool's name as the server lists it"),
    action: field(oneOf(['set', 'rollback'] as const), '`set` a release, or `rollback` to the previous target'),
    descriptorDigest: field(
      digestOrNull,
      "for `set`: the tool's descriptor digest in the server's views at `t` (the smallest if they differ); null for `rollback` or when it lists none",
    ),
    release: field(
      natOrNull,
      'for `set`: 0 (the manifest file as handed) or 1 (the changed release); null for `rollback`',
    ),
    change: field(
      nullable(oneOf(['compatible', 'behavioural', 'breaking'] as const)),
      "for a `set` of release 1: the class of its change from release 0 by SPEC section 9's rules, as the world planned it; null otherwise",
    ),
    migration: field(bool, 'whether the order carries a migration note'),
    delivery: field(
      oneOf(EMERGENCY_DISABLE_DELIVERIES),
      '`unsupported`: the core has no `alias` and is not judged on aliases; `host_down`: the host was dead (F18)',
    ),
  },
);

/** World: an operator moved a tool's versions to `sunset` or `disabled`, or ordered their removal (F35; ground truth for I38). */
const lifecycleOrdered = eventOf(
  'world',
  'lifecycle_ordered',
  admission(
    'an operator walked the versions of tool `tool` that `server` listed when the walk began (F35, SPEC section 9: their descriptor digests) one step on: to stage `announce` (when `delivered`, they stay bindable and callable until the next order that makes them unbindable: no call of them, from a run that pinned them before or after the order, may be refused for their lifecycle, judged by I38), to stage `sunset` (no run may start pinning them; runs under way go on), to stage `disabled` (when `delivered`, no call of them may leave the core after it: no `receipt` naming one of those digests for that tool, judged by I38), or their removal (`remove`, answered by the core: `removed` only when nothing references them; a run the world knows pinned one, a session shown it before the walk began, still references it, judged by I38)',
  ),
  {
    server,
    identity: field(str, 'the identity the server presents at `t`'),
    tool: field(str, "the tool's name as the server lists it"),
    step: field(oneOf(LIFECYCLE_STEPS), 'what the operator ordered: `announce`, `sunset`, `disabled` or `remove`'),
    descriptorDigests: field(
      digests,
      "the tool's descriptor digests in the server's views when the walk's first order was written, sorted (empty: it listed none)",
    ),
    delivery: field(
      oneOf(EMERGENCY_DISABLE_DELIVERIES),
      '`unsupported`: the core has no `remove` (or no `deprecate`) and is not judged on the lifecycle; `host_down`: the host was dead (F18)',
    ),
    answer: field(
      nullable(oneOf(REMOVAL_ANSWERS)),
      "for a delivered `remove`: the core's answer (`removed` or `refused`); null otherwise",
    ),
    code: field(strOrNull, 'for a removal the core refused: its code (e.g. `REFERENCED`); null otherwise'),
  },
);

/** World: a server's primary endpoint became unreachable while its backup serves on (F37; ground truth for I40). */
const primaryDown = eventOf(
  'world',
  'primary_down',
  admission(
    "from `t` until `untilMs` every connection to `server` fails and its open connections are cut (the world writes `disconnected` for each), while its backup endpoint (identity `backupIdentity`, build `backupBuild`) lists and executes the same tools, except that it serves tool `tool` with the primary's contract (`same`) or another (`other`: a new required input; F37, SPEC section 9). A call the backup executes is written with `call_executed.endpoint` `backup`; none may run a descriptor its run did not pin (judged by I40)",
  ),
  {
    server,
    tool: field(str, 'the tool whose contract the backup serves as `contract` says'),
    contract: field(oneOf(BACKUP_CONTRACTS), "the backup's contract for `tool`, from the plan: `same` or `other`"),
    backupIdentity: field(str, 'the identity the backup endpoint presents'),
    backupBuild: field(str, "the backup's build (its `serverInfo.version`)"),
    untilMs: field(nat, 'when the primary can be reached again (`primary_up`)'),
    backup: field(
      oneOf(BACKUP_DELIVERIES),
      '`offered`: the core was handed the backup (`attachBackup`) with each session of the server; `unsupported`: the core has no `attachBackup` and is not judged on backups',
    ),
  },
);

/** World: a server's primary endpoint can be reached again (F37). */
const primaryUp = eventOf(
  'world',
  'primary_up',
  admission('from `t` on connections to `server` succeed again (the end of its `primary_down`, F37)'),
  { server },
);

/** World: the operator's manifest file of a server was handed to the core (F32; ground truth for I35). */
const operatorManifest = eventOf(
  'world',
  'operator_manifest',
  admission(
    'the operator described server `server` in a manifest file (`catsim.manifests.v1`, SPEC section 9) that the world handed the core at round start (`env.manifestFiles`) under each of `identities`; a core that names versions in its receipts must name one in every `receipt` of a call to that server (judged by I35); written once per such server, before the core starts',
  ),
  {
    server,
    identities: field(strings, 'every identity the server presents in the round, in order'),
    toolIdPrefix: field(str, 'the tool ids the file gives: `<toolIdPrefix><tool name>`'),
  },
);

/** World: a server started listing another contract of one tool (F36; ground truth for I39). */
const contractChanged = eventOf(
  'world',
  'contract_changed',
  admission(
    "from `t` on, server `server` lists tool `tool` with descriptor `to` where it listed `from`: the same name and description, another contract, whose true class by SPEC section 9's rules is `change`, while the version the server claims in the descriptor's `_meta` moved from `claimFrom` to `claimTo`, a minor or patch bump whatever the class (F36); no call of a run that pinned `from` may execute against a `breaking` `to` once the core's active generation lists `to` (judged by I39)",
  ),
  {
    server,
    tool: field(str, "the tool's name, the same before and after"),
    from: field(digest, 'the descriptor digest the server listed before `t`'),
    to: field(digest, 'the descriptor digest it lists from `t` on'),
    change: field(oneOf(CONTRACT_CHANGE_CLASSES), "the change's true class, from the plan (never from the claim)"),
    rule: field(str, 'the rule of SPEC section 9 the change falls under, e.g. `new required input`'),
    claimFrom: field(str, "the version the descriptor's `_meta` claimed before"),
    claimTo: field(str, 'the version it claims from `t` on'),
  },
);

/** World: a session's planner bound a call to a disclosed (or guessed) tool. */
const planMade = eventOf(
  'world',
  'plan_made',
  {
    ...admission("the session's planner bound a call to a disclosed (or guessed) tool"),
    rules: [
      {
        field: 'expectAdmit',
        expected: 'a boolean for kind "probe"',
        holds: (event) => event['kind'] !== 'probe' || typeof event['expectAdmit'] === 'boolean',
      },
    ],
  },
  {
    session,
    planId: str,
    key: catalogKey,
    generation: nat,
    snapshotDigest: digest,
    tool: field(str, 'tool name'),
    descriptorDigest: digest,
    kind: field(
      oneOf(PLAN_KINDS),
      '`stale`: called late on purpose (F10); `guessed`: a name never listed to the session (F17); `probe`: quiet-tail probe',
    ),
    expectAdmit: field(
      boolOrNull,
      'for kind `probe` a bool: ground truth says a correct core must admit it; null for the other kinds',
    ),
  },
);

/** World: a human confirmed a plan. */
const confirmation = eventOf(
  'world',
  'confirmation',
  admission('a human confirmed this plan (needed for a non-READ tool from an unversioned source)'),
  {
    session,
    planId: str,
    token: str,
  },
);

/** World: the core's client put a `tools/call` request on the wire (ground truth for I18). */
const callSent = eventOf(
  'world',
  'call_sent',
  admission(
    "the core's client put a `tools/call` request on the connection of this session (at send time, before any link latency or fault): a call that left the core, whatever the server later does with it; after a `notification_delivered` none may leave before the server has served a whole fresh `tools/list` (page 1 to a last page) for that server and audience (I18)",
  ),
  {
    server,
    audience,
    tool: field(str, 'the request\'s `params.name` (`""` when it is not a string)'),
  },
);

/** World: a server executed a call (ground truth for I3, I6, I9). */
const callExecuted = eventOf(
  'world',
  'call_executed',
  admission('the server executed a call (ground truth for I3, I6, I9)'),
  {
    server,
    audience,
    tool: str,
    descriptorDigest: field(
      digestOrNull,
      "of the tool in the server's current view for the audience, or null if unknown",
    ),
    leaseId: field(strOrNull, 'null when the call carried none'),
    pin: field(natOrNull, 'the revision pin the call carried'),
    revision: field(nat, "the server's true revision"),
    endpoint: optional(
      field(
        oneOf(['backup'] as const),
        "`backup`: the server's backup endpoint executed it (F37), `descriptorDigest` being the tool as the backup lists it; absent: the server itself",
      ),
    ),
  },
);

/** World: a server answered an executed call with `structuredContent` (F33; ground truth for I36). */
const resultSent = eventOf(
  'world',
  'result_sent',
  admission(
    "a server answered the call it has just executed (the `call_executed` right before, same lease) with `structuredContent`, under the output schema of the tool as it lists it (F33, SPEC section 9); when the content breaks that schema, the core's `receipt_outcome` of the lease may not pass it on as a valid result (judged by I36, which validates the content against the schema itself)",
  ),
  {
    server,
    audience,
    tool: str,
    leaseId: field(strOrNull, 'null when the call carried none'),
    descriptorDigest: field(digestOrNull, 'of the tool executed, as in `call_executed`'),
    outputSchema: field(anyJson, "the tool's `outputSchema` as the server lists it"),
    structuredContent: field(anyJson, "the result's `structuredContent` as sent"),
  },
);

/** World: a server that checks pins and leases refused a call (ground truth for I9: the call reached it). */
const callRefusedByServer = eventOf(
  'world',
  'call_refused_by_server',
  admission(
    'a server that checks pins and leases refused a call: it reached the server all the same, so the tool must have been disclosed to that session (ground truth for I9, with `call_executed`)',
  ),
  {
    server,
    audience,
    tool: str,
    leaseId: strOrNull,
    code: oneOf(SERVER_CALL_REFUSALS),
  },
);

/** Core: the core learned a new policy epoch for an audience. */
const policySeen = eventOf(
  'core',
  'policy_seen',
  admission(
    'the core learned a new policy epoch for an audience: one the policy service set before it, and by push only if a push of it was delivered',
    'I7',
  ),
  {
    audience,
    epoch: nat,
    via: oneOf(POLICY_CHANNELS),
  },
);

/** Core: the gate decided one call. */
const gateDecision = eventOf(
  'core',
  'gate_decision',
  admission(
    'the gate decided one call; every refusal is also its decision record',
    'I3, I5, I7, I8, I9, I11, I12, I27, I28',
  ),
  {
    callId: str,
    planId: str,
    session,
    key: field(catalogKey, "the caller's catalog key"),
    tool: str,
    planDescriptorDigest: digest,
    generation: field(natOrNull, 'the active generation the gate checked'),
    descriptorDigest: field(digestOrNull, "the active generation's digest for the tool"),
    policyEpoch: field(nat, "the core's epoch for the audience"),
    decision: field(oneOf(GATE_DECISIONS, '`ADMIT` or a refusal code'), 'see [Codes](#codes)'),
  },
);

/** Core: a call left the core (exactly one receipt per call sent). */
const receipt = eventOf(
  'core',
  'receipt',
  admission(
    'the call left the core (exactly one per call sent), after the `gate_decision` ADMIT of the same `callId`',
    'I3, I6, I9, I28, I29',
  ),
  {
    callId: str,
    leaseId: str,
    key: catalogKey,
    tool: str,
    generation: optional(field(anyJson, 'binding field: I6 judges it (must be the generation admitted)')),
    descriptorDigest: optional(
      field(anyJson, "binding field: I6 judges it (must be the admitted descriptor's digest)"),
    ),
    policyEpoch: optional(field(anyJson, 'binding field: I6 judges it (must be the epoch the gate checked)')),
    disclosure: field(
      receiptDisclosure,
      'the snapshot that showed the tool to the session; null when no disclosure did (I9 judges the call)',
    ),
    pin: field(natOrNull, 'the revision pin sent'),
    version: optional(
      field(
        receiptVersion,
        "the capability version that ran (SPEC section 9): the operator's tool id, the version number the core's registry gave the definition it admitted, and that version's manifest digest; written by a core that keeps tool versions, for a server the operator described (`env.manifestFiles`); null when the registry names none. One version names one definition (judged by I35)",
      ),
    ),
  },
);

/** Core: a call's result came back. */
const receiptOutcome = eventOf(
  'core',
  'receipt_outcome',
  admission(
    "the call's result came back, after its receipt, once; `ok` needs the server's `call_executed` of that lease before it, `refused` its `call_refused_by_server`",
    'I6, I36',
  ),
  {
    leaseId: str,
    outcome: field(oneOf(CALL_OUTCOMES), '`unknown` after a timeout or a cut connection'),
    output: optional(
      field(
        oneOf(OUTPUT_CHECKS),
        "the core's check of the result's `structuredContent` against the output schema of the version it admitted (SPEC section 9): `violates` means the core did not pass the result on as valid (with `outcome` `error`); written by a core that checks results, for a result with `structuredContent` of a tool that declares an output schema; absent otherwise (I36 does not judge a result without it: the round is NOT JUDGED on `results`)",
      ),
    ),
  },
);

/** One logical tool as the world digests it: its name and the digest of `{name, description, inputSchema}`. */
const surfaceTool = objectOf({
  name: str,
  digest: field(digest, 'sha256("catsim.surface-tool.v1\\n" + JCS({name, description, inputSchema}))'),
});

/** One tool of a turn's baseline, as the world computes it. */
const baselineTool = objectOf({
  name: str,
  digest: field(digest, 'surface digest, as in `tools`'),
  contested: field(
    bool,
    'the grant of this tool changed less than B (`revocationBoundMs`) ago: the core may show it or not',
  ),
});

/** The capacity a turn gave its request, with what the baseline needs. */
const turnCapacity = nullable(
  objectOf({
    limit: oneOf(SURFACE_LIMITS),
    available: field(nat, 'tools or bytes'),
    requiredMin: field(nat, "what the baseline's uncontested tools need"),
    requiredMax: field(nat, 'what every tool of the baseline needs'),
  }),
);

/** World: the core has no tool surface stage; the round's model turns are not run. */
const surfaceUnsupported = eventOf(
  'world',
  'surface_unsupported',
  surface(
    "the core has no tool surface stage (`modelTurn`, docs/CORE-API.md): the round's planned model turns are not run and no surface check applies; written once, at round start",
  ),
  {
    turns: field(nat, 'model turns planned in the round'),
  },
);

/** World: a session's planner reserved a model request and asked the core to prepare and dispatch it. */
const modelTurn = eventOf(
  'world',
  'model_turn',
  surface(
    "a planner reserved model request `requestId` in its ledger and asked the core for it (right after a `disclosure` to the same session); `baseline` is the world's own projection of that disclosure and the grant (I22-I26)",
  ),
  {
    session,
    requestId: str,
    key: catalogKey,
    generation: nat,
    hooks: field(arrayOf(oneOf(SURFACE_HOOKS), 'hook kind[]'), 'the host extensions the request passes, in order'),
    late: field(nullable(oneOf(SURFACE_LATE_STEPS)), 'the late stage after the hooks, or null'),
    harmless: field(bool, 'every hook and the late stage leave the surface as admitted'),
    baseline: field(
      arrayOf(baselineTool, '{"name", "digest", "contested"}[]'),
      "the generation's tools the world finds admissible (content checks passed, granted), in snapshot order",
    ),
    capacity: field(turnCapacity, 'null when the request has no capacity'),
  },
);

/** World: what the request's tools were when the world's extensions last touched them. */
const requestSurface = eventOf(
  'world',
  'request_surface',
  surface(
    "the request's tools as the world's extensions left them: after the whole hook pipeline (`hooks`), or after the late stage (`late`)",
  ),
  {
    requestId: str,
    stage: oneOf(SURFACE_STAGES),
    tools: field(arrayOf(surfaceTool, '{"name", "digest"}[]'), 'in request order'),
  },
);

/** World: the core settled a reserved model request in the world's ledger. */
const requestSettled = eventOf(
  'world',
  'request_settled',
  surface(
    "the core closed the reservation in the world's request ledger; `accepted` is false for a second settlement (the ledger refused it, as a real one must)",
  ),
  {
    requestId: str,
    settlement: oneOf(REQUEST_SETTLEMENTS),
    accepted: bool,
    code: field(
      nullable(oneOf(SURFACE_REFUSALS)),
      "for `preDispatchRejected`: the rejection's code (null if outside the core API)",
    ),
    check: nullable(oneOf(SURFACE_CHECKS)),
    field: nullable(oneOf(SURFACE_FIELDS)),
    limit: nullable(oneOf(SURFACE_LIMITS)),
  },
);

/** World: the simulated model received a request. */
const modelReceived = eventOf(
  'world',
  'model_received',
  surface("the simulated model (the world's model-call port) received the request"),
  {
    requestId: str,
    tools: field(arrayOf(surfaceTool, '{"name", "digest"}[]'), 'the logical tools it was shown, in order'),
  },
);

/** World: the core's `modelTurn` for a request finished. */
const modelTurnEnded = eventOf(
  'world',
  'model_turn_ended',
  surface("the core's `modelTurn` promise for the request settled (fulfilled or rejected)"),
  {
    requestId: str,
  },
);

/**
 * Every event type of `catsim.trace.v1`, by `type`, in the order docs/TRACE.md documents them.
 * Read with `TraceEventOf<'page_read'>` (types.ts) or validate with `eventProblem` (event-problem.ts).
 */
export const TRACE_EVENTS = {
  server_up: serverUp,
  revision,
  session_opened: sessionOpened,
  page_served: pageServed,
  page_refused: pageRefused,
  defect_planted: defectPlanted,
  identity_rotated: identityRotated,
  disconnected,
  disclosure,
  disclosure_refused: disclosureRefused,
  model_request: modelRequest,
  notification_sent: notificationSent,
  notification_delivered: notificationDelivered,
  listen_requested: listenRequested,
  listen_acknowledged: listenAcknowledged,
  listen_silenced: listenSilenced,
  listen_ended: listenEnded,
  quiet,
  round_end: roundEnd,
  core_failed: coreFailed,
  host_crashed: hostCrashed,
  host_restarted: hostRestarted,
  scan_started: scanStarted,
  page_read: pageRead,
  scan_ended: scanEnded,
  published,
  cas_conflict: casConflict,
  server_disabled: serverDisabled,
  effect_policy: effectPolicy,
  policy_changed: policyChanged,
  policy_push: policyPush,
  rollback_triggered: rollbackTriggered,
  emergency_disabled: emergencyDisabled,
  deprecation_ordered: deprecationOrdered,
  alias_ordered: aliasOrdered,
  lifecycle_ordered: lifecycleOrdered,
  primary_down: primaryDown,
  primary_up: primaryUp,
  operator_manifest: operatorManifest,
  contract_changed: contractChanged,
  plan_made: planMade,
  confirmation,
  call_sent: callSent,
  call_executed: callExecuted,
  result_sent: resultSent,
  call_refused_by_server: callRefusedByServer,
  policy_seen: policySeen,
  gate_decision: gateDecision,
  receipt,
  receipt_outcome: receiptOutcome,
  surface_unsupported: surfaceUnsupported,
  model_turn: modelTurn,
  request_surface: requestSurface,
  request_settled: requestSettled,
  model_received: modelReceived,
  model_turn_ended: modelTurnEnded,
} as const;
