/**
 * One hand-built round plan per mutant core (SPEC section 12: "every mutant has a hand-built plan
 * that fails on it with the expected invariant and passes on the reference core"). Each plan is
 * the smallest situation in which the one defence the mutant lacks is needed; the header comment
 * of each entry says what happens on the mutant.
 */
import { lyingTool } from '../../sim/faults/f14-lying-annotations.ts';
import { plantF13 } from '../../sim/faults/f13-planted-defects.ts';
import type { ListenFault } from '../../sim/faults/f27-listen-stream.ts';
import { OUTPUT_SCHEMA } from '../../sim/faults/f33-output-schema-violation.ts';
import { TOOL_VERSION_KEY } from '../../sim/faults/f36-disguised-breaking-change.ts';
import { HARMFUL_SURFACE_HOOKS, HARMLESS_SURFACE_HOOKS } from '../../contract/trace/codes.ts';
import type { HostRestart, RoundPlan, ToolDescriptor, TurnPlan } from '../../sim/plan/types.ts';
import { TOOL_POOL } from '../../sim/plan/tool-pool.ts';
import { handPlan, handServer, pickingRng, step, tool, tools, turn } from '../support/hand-plan.ts';

/** The five pool tools most plans list (3 pages of 2). */
export const FIVE = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'];

/** One server, five tools at revision 7, healthy otherwise. */
function plain(options: Partial<Parameters<typeof handPlan>[0]> = {}): RoundPlan {
  return handPlan({ servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] })], ...options });
}

function abaPlan(): RoundPlan {
  const a = tools(...FIVE);
  const edited = structuredClone(a[2]!);
  (edited.inputSchema as { properties: Record<string, unknown> }).properties.recursive = { type: 'boolean' };
  const b = [a[0]!, a[1]!, edited, a[3]!, a[4]!];
  return handPlan({
    faults: ['F2'],
    servers: [
      handServer({
        history: [
          step(0, 7, { 'acme.dev': a }),
          step(17, 8, { 'acme.dev': b }, 'F2'),
          step(19, 9, { 'acme.dev': a }, 'F2'),
        ],
        notifications: { sendOnChange: false },
      }),
    ],
  });
}

function pageOneChangedPlan(): RoundPlan {
  const a = tools(...FIVE);
  const edited = structuredClone(a[0]!);
  edited.description = `${String(edited.description)} (edited)`;
  return handPlan({
    faults: ['F1'],
    servers: [
      handServer({
        history: [step(0, 7, { 'acme.dev': a }), step(17, 8, { 'acme.dev': [edited, ...a.slice(1)] }, 'F1')],
        notifications: { sendOnChange: false },
      }),
    ],
  });
}

function twinsPlan(): RoundPlan {
  const acme = tools(...FIVE);
  const globex: ToolDescriptor[] = acme.map((t) => ({
    ...t,
    description: `${String(t.description)} (globex edition)`,
  }));
  return handPlan({
    faults: ['F16'],
    servers: [
      handServer({
        audiences: ['acme.dev', 'globex.dev'],
        history: [step(0, 7, { 'acme.dev': acme, 'globex.dev': globex })],
      }),
    ],
  });
}

function plantedDialectPlan(): RoundPlan {
  const planted = plantF13(pickingRng('UNKNOWN_DIALECT'), TOOL_POOL, 'd0');
  const others = tools('write_file', 'list_directory', 'echo', 'get_weather');
  return handPlan({
    faults: ['F13'],
    servers: [
      handServer({
        history: [step(0, 7, { 'acme.dev': [others[0]!, others[1]!, planted.descriptor, others[2]!, others[3]!] })],
        planted: [planted],
      }),
    ],
  });
}

/**
 * F17 in the window reject-on-novel exists for: latency 1 ms, no list_changed delay. acme.dev
 * gains write_file at 297 (revision 8); the notification reaches the core at 298, and the refresh
 * publishes generation 2 (with write_file) at 304. The planner's tick at 300 is still shown
 * generation 1 and guesses write_file (its own audience gained it); the call leaves the planner
 * 1-20 ms later, when generation 2 holds write_file but no disclosure ever showed it to the
 * session: only the disclosure check stands between the guess and the server.
 */
function gainedToolGuessPlan(): RoundPlan {
  const before = tools('read_file', 'list_directory');
  return handPlan({
    faults: ['F17'],
    listChangedDelayMs: 0,
    servers: [
      handServer({
        latencyMs: 1,
        history: [
          step(0, 7, { 'acme.dev': before }),
          step(297, 8, { 'acme.dev': [...before, tool('write_file')] }, 'F1'),
        ],
      }),
    ],
    calls: { callFraction: 1, guessFraction: 1 },
  });
}

/**
 * F20's burst (test/faults/f20-notification-bursts.test.ts) with a planner calling at every tick:
 * the reference holds each call until a scan started after the latest delivery has ended; the
 * barrier-less loop lets the call of 207 go out 2 ms after a delivery (I18), and the resetting
 * debounce starves the refresh for the whole burst (I19).
 */
function burstPlan(): RoundPlan {
  return handPlan({
    faults: ['F20'],
    servers: [
      {
        ...handServer({ history: [step(0, 7, { 'acme.dev': tools('read_file', 'write_file', 'list_directory') })] }),
        notificationBursts: [{ atMs: 200, everyMs: 10, count: 60 }],
      },
    ],
    calls: { callFraction: 1 },
  });
}

/** F21's window (test/faults/f21-auth-gated-listing.test.ts): the refresh at 1050 is refused for authorization. */
function authGatePlan(): RoundPlan {
  return handPlan({
    faults: ['F21'],
    servers: [
      {
        ...handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] }),
        authGated: [{ audience: 'acme.dev', fromMs: 1000, toMs: 1100 }],
      },
    ],
  });
}

/**
 * F24's window (test/faults/f24-scope-mixed.test.ts): a modern server's page 2 says `public` until
 * 60 while page 1 says `private`; the reference retries until 92, the mutant publishes at 50.
 */
export function scopeMixedPlan(): RoundPlan {
  const server = handServer({
    history: [step(0, 7, { 'acme.dev': tools('read_file', 'write_file', 'list_directory') })],
  });
  return handPlan({
    faults: ['F24'],
    servers: [
      { ...server, era: 'modern', cacheTtlMs: 250, cacheScope: 'private', scopeMixed: [{ fromMs: 0, toMs: 60 }] },
    ],
  });
}

/** F25 (test/faults/f25-public-varies.test.ts): two tenants, different tools, every page marked public. */
function publicVariesPlan(): RoundPlan {
  const views = { 'acme.dev': tools('read_file', 'write_file'), 'globex.dev': tools('list_directory', 'search_files') };
  const server = handServer({ audiences: ['acme.dev', 'globex.dev'], history: [step(0, 7, views)] });
  return handPlan({
    faults: ['F25'],
    servers: [{ ...server, era: 'modern', cacheTtlMs: 250, cacheScope: 'private', falselyPublic: true }],
  });
}

/**
 * F29 and a trusted TTL (test/faults/f29-gateway-drops-notifications.test.ts): a modern server
 * behind a stateless gateway (no notification ever reaches the host) whose pages say `ttlMs` 2500,
 * and a tool added at 1300. The reference core polls every 1000 ms (walks at 10, 1040, 2070) and
 * reads the change at 2075, within I33's bound (1300 + 1000 + 5 = 2305); with `ttlMs` other than
 * `ttl` the F30 rule leaves it alone, so the server's own TTL is what the pages say.
 */
export function gatewayPlan(options: { ttlMs?: number; dropsNotifications?: boolean } = {}): RoundPlan {
  const server = handServer({
    history: [
      step(0, 7, { 'acme.dev': tools('read_file', 'write_file', 'list_directory') }),
      step(1300, 8, { 'acme.dev': tools('read_file', 'write_file', 'list_directory', 'search_files') }),
    ],
  });
  const drops = options.dropsNotifications ?? true;
  return handPlan({
    faults: drops ? ['F29'] : [],
    tHealMs: 1500,
    servers: [
      {
        ...server,
        era: 'gateway',
        cacheTtlMs: options.ttlMs ?? 2500,
        cacheScope: 'private',
        ...(drops ? { gatewayDropsNotifications: true } : {}),
      },
    ],
  });
}

/**
 * F28 (test/faults/f28-cursor-node-swap.test.ts): one modern server, three tools at revision 7 in
 * pages of 2, a node swap armed from t=0: it happens right after the first page with a next
 * cursor, so scan-0's page 2 is refused (-32602).
 */
export function nodeSwapPlan(): RoundPlan {
  const server = handServer({
    history: [step(0, 7, { 'acme.dev': tools('read_file', 'write_file', 'list_directory') })],
  });
  return handPlan({
    faults: ['F28'],
    servers: [{ ...server, era: 'modern', cacheTtlMs: 250, cacheScope: 'private', nodeSwapsAtMs: [0] }],
  });
}

/**
 * F27 (test/faults/f27-listen-stream.test.ts): one modern server, two tools at revision 7 and a
 * third from t=`changeAtMs`; its listen streams suffer `faults`.
 */
export function listenFaultPlan(faults: ListenFault[], changeAtMs = 700): RoundPlan {
  const server = handServer({
    history: [
      step(0, 7, { 'acme.dev': tools('read_file', 'write_file') }),
      step(changeAtMs, 8, { 'acme.dev': tools('read_file', 'write_file', 'list_directory') }),
    ],
  });
  return handPlan({
    faults: ['F27'],
    servers: [{ ...server, era: 'modern', cacheTtlMs: 250, cacheScope: 'private', listenFaults: faults }],
  });
}

/** The hand plan of each mutant, by name. */
/** The audience of the surface plan's one session. */
const AUDIENCE = 'acme.dev';

/** The surface plan's turns, in time order, one every 20 ms from t=400. */
function surfaceTurns(): TurnPlan[] {
  const list: Omit<TurnPlan, 'atMs'>[] = [
    ...HARMFUL_SURFACE_HOOKS.map((kind) => turn(0, AUDIENCE, [kind], { late: kind === 'launder' ? 'restore' : null })),
    ...HARMLESS_SURFACE_HOOKS.map((kind) => turn(0, AUDIENCE, [kind])),
    turn(0, AUDIENCE, [], { late: 'late-edit-description' }),
    turn(0, AUDIENCE, [], { late: 'late-edit-schema' }),
    turn(0, AUDIENCE, [], { capacity: { limit: 'toolCountMax', fit: 'short' } }),
    turn(0, AUDIENCE, [], { capacity: { limit: 'surfaceBytesMax', fit: 'fits' } }),
    turn(0, AUDIENCE, ['compress-messages'], { late: 'late-evidence' }),
  ];
  return list.map((planned, index) => ({ ...planned, atMs: 400 + 20 * index }));
}

/** F22's hand-built round: 29 model turns on one server (every hook kind, both late edits, both capacities). */
export const surfaceTurnsPlan = (): RoundPlan =>
  handPlan({
    faults: ['F22'],
    revocationBoundMs: 300,
    servers: [
      handServer({
        audiences: [AUDIENCE],
        history: [step(0, 7, { [AUDIENCE]: tools('read_file', 'search_files', 'write_file') })],
        turns: surfaceTurns(),
      }),
    ],
  });

/**
 * F18's hand-built round (test/faults/f18-host-restart.test.ts tells each crash point's story):
 * five tools in pages of 2, the revision moving 7 -> 8 at 300 unless calls are planned.
 */
export function hostRestartPlan(restarts: HostRestart[], callFraction = 0): RoundPlan {
  return handPlan({
    faults: ['F18'],
    tHealMs: 2000,
    calls: { callFraction },
    hostRestarts: restarts,
    servers: [
      handServer({
        history: [
          step(0, 7, { 'acme.dev': tools(...FIVE) }),
          ...(callFraction > 0 ? [] : [step(300, 8, { 'acme.dev': tools(...FIVE.slice(1)) })]),
        ],
      }),
    ],
  });
}

/**
 * F19 (test/faults/f19-rollback-triggers.test.ts): five tools, revision 7 -> 8 at 300 (the same
 * tools: generation 2 differs from 1 only in its revision), so generation 1 is the rollback
 * source; one trigger at `triggerAtMs`. `revokeAtMs` moves acme.dev's policy (move_file revoked)
 * after both generations were discovered, so neither can prove the policy holding at the trigger.
 */
export function rollbackPlan(options: {
  triggerAtMs: number;
  kind?: 'missing_tool_rate' | 'privilege_escalation';
  revokeAtMs?: number;
  callFraction?: number;
}): RoundPlan {
  return handPlan({
    faults: ['F19'],
    calls: { callFraction: options.callFraction ?? 0 },
    ...(options.revokeAtMs === undefined
      ? {}
      : {
          faults: ['F8', 'F19'],
          policy: {
            changes: [{ atMs: options.revokeAtMs, audience: 'acme.dev', revoke: ['move_file'], grant: [] }],
            pushLossFraction: 0,
          },
        }),
    rollbackTriggers: [
      { atMs: options.triggerAtMs, server: 's0', audience: 'acme.dev', kind: options.kind ?? 'missing_tool_rate' },
    ],
    servers: [
      handServer({
        history: [step(0, 7, { 'acme.dev': tools(...FIVE) }), step(300, 8, { 'acme.dev': tools(...FIVE) })],
      }),
    ],
  });
}

/**
 * F26 (test/faults/f26-emergency-disable.test.ts): five tools at revision 7, every planned call
 * made; the operator emergency-disables `read_file` at `atMs`. With `editAtMs`, the server then
 * changes `read_file`'s description (revision 8): a new version of a disabled tool.
 */
export function emergencyDisablePlan(options: { atMs: number; editAtMs?: number; callFraction?: number }): RoundPlan {
  const five = tools(...FIVE);
  const edited = { ...structuredClone(five[0]!), description: 'Reads any file, secrets included.' };
  const history = [step(0, 7, { 'acme.dev': five })];
  if (options.editAtMs !== undefined)
    history.push(step(options.editAtMs, 8, { 'acme.dev': [edited, ...five.slice(1)] }));
  return {
    ...handPlan({
      faults: ['F26'],
      calls: { callFraction: options.callFraction ?? 1 },
      servers: [handServer({ history })],
    }),
    emergencyDisables: [{ atMs: options.atMs, server: 's0', tool: 'read_file' }],
  };
}

/**
 * F32 (test/faults/f32-description-change.test.ts): five tools at revision 7, every planned call
 * made; at 600 the server lists `read_file` with a new description and nothing else changed
 * (revision 8). The operator described `s0` in a manifest file (`operatorManifest`), so the core is
 * handed it and names, in each receipt, the version that ran: `s0.read_file` v1 before the change,
 * v2 after.
 */
export function descriptionChangePlan(): RoundPlan {
  const five = tools(...FIVE);
  const redescribed = { ...structuredClone(five[0]!), description: 'Reads a file; now also used for audits.' };
  return handPlan({
    faults: ['F32'],
    calls: { callFraction: 1 },
    servers: [
      {
        ...handServer({
          history: [
            step(0, 7, { 'acme.dev': five }),
            step(600, 8, { 'acme.dev': [redescribed, ...five.slice(1)] }, 'F32'),
          ],
        }),
        operatorManifest: true,
      },
    ],
  });
}

/**
 * F33 (test/faults/f33-output-schema-violation.test.ts): five tools at revision 7, every planned
 * call made; `read_file` declares F33's output schema and the server answers each executed call
 * of it with structured content: the first (`call` 0) with an extra property `note` where
 * `additionalProperties` is false, the later ones conforming. The reference reports the first
 * `violates` (outcome `error`) and the later ones `conforms`; `mutant:output-unchecked` passes the
 * first on as `ok`.
 */
export function outputViolationPlan(
  violations: { call: number; kind: 'missing-required' | 'wrong-type' | 'extra-property' }[] = [
    { call: 0, kind: 'extra-property' },
  ],
): RoundPlan {
  const five = tools(...FIVE);
  const declared = { ...five[0]!, outputSchema: structuredClone(OUTPUT_SCHEMA) };
  return handPlan({
    faults: ['F33'],
    calls: { callFraction: 1 },
    servers: [
      {
        ...handServer({ history: [step(0, 7, { 'acme.dev': [declared, ...five.slice(1)] })] }),
        structuredResults: { tool: 'read_file', violations },
      },
    ],
  });
}

/**
 * F31 (test/faults/f31-deprecated-binding.test.ts): five tools at revision 7, every planned call
 * made; the operator deprecates (no-new-binding) the `read_file` the server lists at 500, and at
 * 600 the server adds `echo` (revision 8), so the core publishes and discloses a new generation
 * after the order, which still lists the deprecated `read_file`.
 */
export function deprecationPlan(): RoundPlan {
  const five = tools(...FIVE);
  return {
    ...handPlan({
      faults: ['F31'],
      calls: { callFraction: 1 },
      servers: [
        handServer({
          history: [step(0, 7, { 'acme.dev': five }), step(600, 8, { 'acme.dev': [...five, tool('echo')] })],
        }),
      ],
    }),
    deprecations: [{ atMs: 500, server: 's0', tool: 'read_file' }],
  };
}

/**
 * F34's hand plan: one server (operator-described, latency 5 ms, pages of 2, T_heal 2,000) shows
 * acme.dev five tools at revision 7 and adds one tool at 600 (`echo`, revision 8), 1,100
 * (`get_weather`, revision 9) and 1,500 (`search_nodes`, revision 10), so each stretch is another
 * generation; every planned call is made, and every one is a call of `read_file` (F34's aliased
 * calls, fraction 1). The operator sets `read_file`'s production alias at release 0 (the manifest
 * file as handed) at 300 and flips it to release 1 (`change`, default a longer timeout,
 * compatible) at 900; with `rollback`, rolls it back at 1,300.
 */
export function aliasPlan(
  options: { rollback?: boolean; change?: 'compatible' | 'behavioural' | 'breaking'; migration?: boolean } = {},
): RoundPlan {
  const five = tools(...FIVE);
  const base = handPlan({
    faults: ['F34'],
    calls: { callFraction: 1 },
    tHealMs: 2_000,
    servers: [
      handServer({
        history: [
          step(0, 7, { 'acme.dev': five }),
          step(600, 8, { 'acme.dev': [...five, tool('echo')] }),
          step(1_100, 9, { 'acme.dev': [...five, tool('echo'), tool('get_weather')] }),
          step(1_500, 10, { 'acme.dev': [...five, tool('echo'), tool('get_weather'), tool('search_nodes')] }),
        ],
      }),
    ],
  });
  const entries = {
    compatible: { timeoutMs: 20_000 },
    behavioural: { owner: 'team-release' },
    breaking: { timeoutMs: 5_000 },
  };
  const change = options.change ?? 'compatible';
  const order = { server: 's0', tool: 'read_file' };
  const rollback = {
    ...order,
    atMs: 1_300,
    action: 'rollback' as const,
    release: null,
    change: null,
    entry: null,
    migration: false,
  };
  return {
    ...base,
    calls: { ...base.calls, aliasedCalls: { tool: 'read_file', fraction: 1 } },
    servers: base.servers.map((server) => ({ ...server, operatorManifest: true })),
    aliasOrders: [
      { ...order, atMs: 300, action: 'set', release: 0, change: null, entry: {}, migration: false },
      {
        ...order,
        atMs: 900,
        action: 'set',
        release: 1,
        change,
        entry: entries[change],
        migration: options.migration ?? false,
      },
      ...(options.rollback === true ? [rollback] : []),
    ],
  };
}

/**
 * F35's hand plan (test/faults/f35-version-removal.test.ts): one server (latency 5 ms, pages of 2,
 * T_heal 2,000) shows acme.dev five tools at revision 7; every planned call is made, and every one
 * is a call of `read_file` (F35's walked calls, fraction 1). The operator walks `read_file`'s
 * version to `sunset` at 500 and to `disabled` at 900, and orders its removal at 1,300, while the
 * planner's run, shown generation 1 before the walk, still calls it. With `changeAt`, the server
 * adds `echo` (revision 8) then, so the planner is shown a later generation; with `announceAt`,
 * the walk begins with `announce` then.
 */
export function removalPlan(options: { changeAt?: number; announceAt?: number } = {}): RoundPlan {
  const five = tools(...FIVE);
  const changes =
    options.changeAt === undefined ? [] : [step(options.changeAt, 8, { 'acme.dev': [...five, tool('echo')] })];
  const base = handPlan({
    faults: ['F35'],
    calls: { callFraction: 1 },
    tHealMs: 2_000,
    servers: [handServer({ history: [step(0, 7, { 'acme.dev': five }), ...changes] })],
  });
  const order = { server: 's0', tool: 'read_file' };
  return {
    ...base,
    calls: { ...base.calls, walkedCalls: { tool: 'read_file', fraction: 1 } },
    lifecycleOrders: [
      ...(options.announceAt === undefined ? [] : [{ ...order, atMs: options.announceAt, step: 'announce' as const }]),
      { ...order, atMs: 500, step: 'sunset' },
      { ...order, atMs: 900, step: 'disabled' },
      { ...order, atMs: 1_300, step: 'remove' },
    ],
  };
}

/** A descriptor with the version claim F36's servers put in `_meta` (`TOOL_VERSION_KEY`). */
function claiming(descriptor: ToolDescriptor, claim: string): ToolDescriptor {
  return { ...descriptor, _meta: { [TOOL_VERSION_KEY]: claim } };
}

/**
 * F36's hand plan: one server (latency 5 ms, pages of 2, T_heal 2,000) shows acme.dev
 * `read_file`, `list_directory` (claiming version 2.0.0 in `_meta`) and `get_weather` (claiming
 * 1.2.0) at revision 7. At 800 (revision 8) `get_weather` makes its optional `units` required (a
 * new required input: breaking) while its claim says 1.2.1, a patch release; at 1,200 (revision 9)
 * `list_directory` declares an output schema (compatible) under the same claim 2.0.0. Every
 * planned call is made, every one a call of one of the two changed tools, each sent 600 ms late,
 * so runs bound before a change call after the core has published it.
 */
export function contractPlan(): RoundPlan {
  const weather = claiming(tool('get_weather'), '1.2.0');
  const schema = weather['inputSchema'] as Record<string, unknown>;
  const required = claiming({ ...weather, inputSchema: { ...schema, required: ['city', 'units'] } }, '1.2.1');
  const directory = claiming(tool('list_directory'), '2.0.0');
  const output = {
    type: 'object',
    properties: { auditId: { type: 'string', description: 'The audit record of the run.' } },
  };
  const described = { ...directory, outputSchema: output };
  const read = tool('read_file');
  const base = handPlan({
    faults: ['F36'],
    calls: { callFraction: 1 },
    tHealMs: 2_000,
    servers: [
      handServer({
        history: [
          step(0, 7, { 'acme.dev': [read, directory, weather] }),
          step(800, 8, { 'acme.dev': [read, directory, required] }, 'F36'),
          step(1_200, 9, { 'acme.dev': [read, described, required] }, 'F36'),
        ],
      }),
    ],
  });
  const changes = [
    {
      atMs: 800,
      tool: 'get_weather',
      change: 'breaking' as const,
      rule: 'new required input',
      claimFrom: '1.2.0',
      claimTo: '1.2.1',
    },
    {
      atMs: 1_200,
      tool: 'list_directory',
      change: 'compatible' as const,
      rule: 'output schema added',
      claimFrom: '2.0.0',
      claimTo: '2.0.0',
    },
  ];
  return {
    ...base,
    calls: {
      ...base.calls,
      contractCalls: {
        tools: ['get_weather', 'list_directory'],
        fraction: 1,
        lateFraction: 1,
        lateDelayMs: [600, 600],
      },
    },
    servers: base.servers.map((server) => ({ ...server, contractChanges: changes })),
  };
}

/**
 * F36 with the planners on get_weather alone (`contractPlan` otherwise): the runs shown generation
 * 2 (get_weather's breaking change at 800, published at 855) pin its new contract, and their calls,
 * sent 600 ms late, leave after list_directory's compatible change at 1,200 is published as
 * generation 3 (1,255), which still lists and serves get_weather's new contract.
 */
export function siblingChangePlan(): RoundPlan {
  const plan = contractPlan();
  const contractCalls = plan.calls.contractCalls;
  if (contractCalls === undefined) throw new Error('contractPlan has contractCalls');
  return { ...plan, calls: { ...plan.calls, contractCalls: { ...contractCalls, tools: ['get_weather'] } } };
}

/**
 * F37's hand plan (test/faults/f37-backup-endpoint.test.ts): one server (latency 5 ms, pages of 2,
 * T_heal 2,000) shows acme.dev five tools at revision 7; every planned call is made, and every one
 * is a call of `read_file` (F37's backed-up calls, fraction 1). The server's primary is down from
 * 500 to 1,300 while its backup serves `read_file` under `contract` (default `other`: a new
 * required input `backupMode`).
 */
export function backupPlan(contract: 'same' | 'other' = 'other'): RoundPlan {
  const base = handPlan({
    faults: ['F37'],
    calls: { callFraction: 1 },
    tHealMs: 2_000,
    servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] })],
  });
  return {
    ...base,
    calls: { ...base.calls, backedUpCalls: { tool: 'read_file', fraction: 1 } },
    servers: base.servers.map((server) => ({
      ...server,
      backupEndpoint: { tool: 'read_file', contract, downAtMs: 500, upAtMs: 1_300 },
    })),
  };
}

export const MUTANT_PLANS: Record<string, () => RoundPlan> = {
  'first-page-only': () => plain({ faults: [] }),
  'no-cursor-loop-detection': () =>
    handPlan({
      faults: ['F5'],
      pageCountMax: 4,
      servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })], cursorTrait: 'repeat' })],
    }),
  'two-equal-scans': abaPlan,
  'last-page-revision': pageOneChangedPlan,
  'no-final-recheck': () =>
    handPlan({
      faults: ['F1'],
      servers: [
        handServer({
          history: [
            step(0, 7, { 'acme.dev': tools(...FIVE) }),
            step(37, 8, { 'acme.dev': [...tools(...FIVE), tool('echo')] }, 'F1'),
          ],
          notifications: { sendOnChange: false },
        }),
      ],
    }),
  'unversioned-write': () =>
    handPlan({
      faults: ['F12'],
      servers: [handServer({ versioned: false, history: [step(0, 7, { 'acme.dev': tools(...FIVE) })] })],
      calls: { callFraction: 1, confirmFraction: 0 },
    }),
  'trust-readonly-hint': () =>
    handPlan({
      faults: ['F12', 'F14'],
      servers: [
        handServer({ versioned: false, history: [step(0, 7, { 'acme.dev': [tool('read_file'), lyingTool('a')] })] }),
      ],
      policy: { effectClasses: { read_file: 'READ' } },
      calls: { callFraction: 1, confirmFraction: 0 },
    }),
  'publish-without-cas': () => plain({ faults: ['F9'], refreshersPerKey: 2 }),
  'key-without-tenant': twinsPlan,
  'no-recheck-at-call': () =>
    handPlan({
      faults: ['F10'],
      servers: [
        handServer({
          history: [
            step(0, 7, { 'acme.dev': tools('read_file', 'write_file') }),
            step(300, 8, { 'acme.dev': tools('search_files', 'move_file') }, 'F1'),
          ],
        }),
      ],
      calls: { callFraction: 1, staleFraction: 1, staleDelayMs: [400, 400] },
    }),
  'revocation-on-refresh': () =>
    plain({
      faults: ['F8'],
      tHealMs: 2500,
      refreshIntervalMs: 3000,
      generationTtlMs: 5000,
      calls: { callFraction: 1 },
      policy: {
        changes: [{ atMs: 300, audience: 'acme.dev', revoke: ['write_file'], grant: [] }],
        pushLossFraction: 0,
      },
    }),
  'any-dialect': plantedDialectPlan,
  'forward-undisclosed': gainedToolGuessPlan,
  'receipt-without-epoch': () => plain(),
  'serve-expired': () => plain({ generationTtlMs: 300 }),
  'ignore-identity-rotation': () =>
    handPlan({
      faults: ['F7'],
      servers: [
        handServer({
          identity: 'fp:0000000000000001',
          history: [step(0, 7, { 'acme.dev': tools(...FIVE) })],
          rotations: [{ atMs: 22, identity: 'fp:00000000000000aa' }],
        }),
      ],
    }),
  // F23 (test/faults/f23-over-limit-catalog.test.ts): five tools against a tool limit of 4.
  'no-catalog-limits': () =>
    handPlan({
      faults: ['F23'],
      toolCountMax: 4,
      servers: [handServer({ history: [step(0, 7, { 'acme.dev': tools(...FIVE) })], overLimitCatalog: 'tools' })],
    }),
  'no-list-changed-barrier': burstPlan,
  'resetting-debounce': burstPlan,
  // The burst again: each delivery gets a made-up scan at once, the server no fresh list.
  'fabricated-scans': burstPlan,
  // The guess of write_file (added at 297, never shown): the gate refuses it, the mutant sends it anyway.
  'send-refused-name': gainedToolGuessPlan,
  'auth-refusal-as-empty': authGatePlan,
  'ignore-cache-scope': scopeMixedPlan,
  'share-public': publicVariesPlan,
  // The TTL of 2500 read at 20 is taken as proof: the polls at 1040 and 2070 are skipped, and the
  // change at 1300 (pushed nowhere by the gateway) is read only at 2525, past I33's bound of 2305.
  'trust-ttl': () => gatewayPlan(),
  // F28: the node swap after scan-0's page 1; the mutant re-reads from page 1 under scan-0 and keeps the old page 1.
  'keep-invalid-cursor-pages': nodeSwapPlan,
  // F27: the connection cut at 100; the mutant's second connection sends no subscriptions/listen.
  'never-resubscribes': () => listenFaultPlan([{ kind: 'dropped', fromMs: 100, toMs: 100 }]),
  // The policy moves at 400, after both generations' scans; the reference DISABLES at the trigger (600), the mutant rolls back to 1.
  'rollback-to-stale': () => rollbackPlan({ triggerAtMs: 600, kind: 'privilege_escalation', revokeAtMs: 400 }),
  // The reference rolls back to 1 at the trigger (500) and leases generation 3; the mutant keeps leasing 2.
  'rollback-keeps-leasing': () => rollbackPlan({ triggerAtMs: 500, callFraction: 1 }),
  // As rollback-to-stale's plan, with every planned call made: the reference DISABLES the key at the
  // trigger (600) and refuses the calls after it SERVER_DISABLED; the mutant lets them leave.
  'disable-not-enforced': () =>
    rollbackPlan({ triggerAtMs: 600, kind: 'privilege_escalation', revokeAtMs: 400, callFraction: 1 }),
  // The reference refuses every read_file call after the order (500) VERSION_EMERGENCY_DISABLED; the mutant sends them.
  'emergency-disable-ignored': () => emergencyDisablePlan({ atMs: 500 }),
  // A quiet round with a rescan every 300 ms: the sixth walk in a row with the same pages (at 1500)
  // is published empty. T_end is 2022, so the round runs past it (the early end would not: the
  // early-end tests run this plan with earlyEnd).
  'late-empty-publish': () => plain({ tHealMs: 500, refreshIntervalMs: 300, revocationBoundMs: 300 }),
  // The reference names read_file v1 before the description change at 600 and v2 after; the mutant keeps v1.
  'version-by-claim': descriptionChangePlan,
  // The reference binds no deprecated read_file in generation 2 (disclosed after the order at 500); the mutant does.
  'deprecation-ignored': deprecationPlan,
  'output-unchecked': outputViolationPlan,
  'alias-follows-latest': () => aliasPlan(),
  'breaking-alias-without-migration': () => aliasPlan({ change: 'breaking' }),
  'remove-while-referenced': () => removalPlan(),
  'removal-misreported': () => removalPlan(),
  'disabled-still-executes': () => removalPlan(),
  'announce-as-no-new-binding': () => removalPlan({ announceAt: 200, changeAt: 300 }),
  'trust-semver-claim': contractPlan,
  'snapshot-wide-drift': siblingChangePlan,
  'backup-any-contract': () => backupPlan('other'),
  'refuse-everything': () => plain(),
  // The tool surface (F22): the one round of 29 turns; each mutant lets some harmful turn through.
  'seal-from-final-request': surfaceTurnsPlan,
  'shallow-baseline': surfaceTurnsPlan,
  'only-early-check': surfaceTurnsPlan,
  'refusal-without-settlement': surfaceTurnsPlan,
  'double-settlement': surfaceTurnsPlan,
  'silent-top-n': surfaceTurnsPlan,
  'hooks-add-tools': surfaceTurnsPlan,
  // Host restarts (F18), one crash point each: in the publish transaction, mid-walk, after a commit.
  'two-transaction-publish': () => hostRestartPlan([{ atMs: 1, point: 'in_publish', downMs: 10 }]),
  'journal-beside-disk': () => hostRestartPlan([{ atMs: 1, point: 'in_publish', downMs: 10 }]),
  'resume-walk-after-restart': () => hostRestartPlan([{ atMs: 22, point: 'at_time', downMs: 10 }]),
  'trust-pre-crash-memory': () => hostRestartPlan([{ atMs: 200, point: 'after_commit', downMs: 10 }]),
};
