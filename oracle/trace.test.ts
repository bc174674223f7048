import { describe, expect, it } from 'vitest';
import { checkTrace } from './check.ts';
import { DEV_SESSION, admissionRound, cleanRound, disclosureRound } from './testing/scenarios.ts';
import { ID0 } from './testing/trace-builder.ts';
import { TraceFormatError, parseTrace } from './trace.ts';

/** The clean round as JSON lines, split so single lines can be replaced. */
function cleanLines(): string[] {
  return cleanRound().jsonl().trimEnd().split('\n');
}

function withLine(lineNo: number, text: string): string {
  const lines = cleanLines();
  lines[lineNo - 1] = text;
  return lines.join('\n');
}

function parseError(text: string): TraceFormatError {
  try {
    parseTrace(text);
  } catch (error) {
    if (error instanceof TraceFormatError) return error;
    throw error;
  }
  throw new Error('parseTrace accepted the trace');
}

const EVENT = '{"seq":1,"t":10,"src":"world","type":"quiet"}';
/** Any well-formed digest. */
const HEX = 'ab'.repeat(32);

/** The lines of `text` with `edit` applied to the `published` event at `seq`. */
function editPublish(text: string, seq: number, edit: (event: Record<string, unknown>) => unknown): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line, index) => {
      if (index !== seq + 1) return line;
      const event = JSON.parse(line) as Record<string, unknown>;
      if (event['type'] !== 'published') throw new Error(`line ${index + 1} is not a publish`);
      return JSON.stringify(edit(event));
    })
    .join('\n');
}

/** The event without its `rolledBackFrom`, as a writer older than the field wrote it. */
function withoutRolledBackFrom(event: Record<string, unknown>): Record<string, unknown> {
  const { rolledBackFrom: _dropped, ...rest } = event;
  return rest;
}

describe('parseTrace', () => {
  it('reads back exactly what the builder wrote', () => {
    const builder = cleanRound();
    expect(parseTrace(builder.jsonl())).toEqual(builder.build());
  });

  it('accepts CRLF line ends and no trailing newline', () => {
    const builder = cleanRound();
    expect(parseTrace(builder.jsonl().trimEnd().replaceAll('\n', '\r\n'))).toEqual(builder.build());
  });

  it('refuses an unknown event type and an unknown field, in an event, in a nested object and in the header', () => {
    const lines = cleanLines();
    const last = lines.length - 1;
    const roundEnd = JSON.parse(lines[last]!) as Record<string, unknown>;
    const withRoundEnd = (edited: Record<string, unknown>): string =>
      [...lines.slice(0, last), JSON.stringify(edited)].join('\n');
    const line = lines.length;
    expect(
      parseError(withRoundEnd({ seq: roundEnd['seq'], t: roundEnd['t'], src: 'world', type: 'probe_call', tool: 'a' }))
        .message,
    ).toBe(`line ${line}: unknown event type "probe_call" (not in catsim.trace.v1)`);
    expect(parseError(withRoundEnd({ ...roundEnd, note: 'extra' })).message).toBe(
      `line ${line}: "round_end" has an unknown field "note"`,
    );
    const { builder, seqs } = disclosureRound();
    const nested = editPublish(builder.jsonl(), seqs.devPublish, (event) => ({
      ...event,
      pages: (event['pages'] as object[]).map((page) => ({ ...page, size: 1 })),
    }));
    expect(parseError(nested).message).toBe(
      `line ${seqs.devPublish + 2}: "published".pages[0] has an unknown field "size"`,
    );
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(
      parseError([JSON.stringify({ ...header, extra: { nested: true } }), ...lines.slice(1)].join('\n')).message,
    ).toBe('line 1: header has an unknown field "extra"');
  });

  it('reads the standard world with one session_opened per audience before any scan', () => {
    const events = parseTrace(cleanRound().jsonl()).events.slice(0, 5);
    expect(events.map((e) => [e.seq, e.type, 'audience' in e ? e.audience : null])).toEqual([
      [0, 'server_up', null],
      [1, 'revision', null],
      [2, 'session_opened', 'acme.dev'],
      [3, 'session_opened', 'acme.ops'],
      [4, 'scan_started', null],
    ]);
    expect(events[2]).toEqual({
      seq: 2,
      t: 20,
      src: 'world',
      type: 'session_opened',
      server: 's0',
      audience: 'acme.dev',
      identity: ID0,
    });
  });

  it('treats a known type under the wrong src as a format error', () => {
    expect(parseError(withLine(2, '{"seq":0,"t":0,"src":"core","type":"server_up"}')).message).toBe(
      'line 2: "server_up" must have src "world", found "core"',
    );
    expect(parseError(withLine(2, '{"seq":0,"t":0,"type":"server_up"}')).message).toBe(
      'line 2: "server_up" must have src "world", found none',
    );
  });

  it('names the line of a non-JSON line', () => {
    const error = parseError(withLine(3, '{"seq":1,"t":10,'));
    expect(error.message).toBe('line 3: not valid JSON');
    expect(error.line).toBe(3);
    expect(error.name).toBe('TraceFormatError');
  });

  it('refuses an empty trace as missing its header', () => {
    expect(parseError('').message).toBe('line 1: missing header (the trace is empty)');
  });

  it('refuses a trace whose first line is an event as missing its header', () => {
    const lines = cleanLines().slice(1);
    expect(parseError(lines.join('\n')).message).toBe(
      'line 1: missing header (expected type "header", found type "server_up")',
    );
  });

  it.each([
    ['an event without a type', withLine(2, '{"seq":0,"t":0,"src":"world"}'), 'line 2: event has no field "type"'],
    ['a JSON value that is not an object', withLine(2, '[1,2]'), 'line 2: expected a JSON object'],
    ['an empty line', withLine(2, ''), 'line 2: empty line'],
    ['a seq out of order', withLine(2, EVENT), 'line 2: "seq" is 1, expected 0'],
    ['a missing seq', withLine(2, '{"t":0,"src":"world","type":"quiet"}'), 'line 2: "quiet" has no field "seq"'],
    [
      'a negative t',
      withLine(2, '{"seq":0,"t":-1,"src":"world","type":"quiet"}'),
      'line 2: "quiet".t must be a non-negative integer',
    ],
    [
      'time going backwards',
      [
        cleanLines()[0],
        '{"seq":0,"t":5,"src":"world","type":"quiet"}',
        '{"seq":1,"t":4,"src":"world","type":"quiet"}',
      ].join('\n'),
      'line 3: "t" is 4, earlier than the previous event\'s 5',
    ],
    [
      'a missing field',
      withLine(2, '{"seq":0,"t":0,"src":"world","type":"server_up","server":"s0"}'),
      'line 2: "server_up" has no field "identity"',
    ],
    [
      'a mistyped field',
      withLine(2, '{"seq":0,"t":0,"src":"world","type":"round_end","status":"done","reason":"quiet"}'),
      'line 2: "round_end".status must be "settled" or "undecided"',
    ],
    [
      'a digest that is not hex',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"world","type":"page_served","server":"s0","audience":"a.b","scanId":null,"cursorIn":null,"cursorOut":null,"revision":1,"reported":1,"tools":["XYZ"],"pageDigest":"00"}',
      ),
      'line 2: "page_served".tools[0] must be 64 lowercase hex digits',
    ],
    [
      'a session_opened without identity',
      withLine(2, '{"seq":0,"t":0,"src":"world","type":"session_opened","server":"s0","audience":"acme.dev"}'),
      'line 2: "session_opened" has no field "identity"',
    ],
    [
      'a key without audience',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"core","type":"scan_started","key":"abc","scanId":"x","expectedGeneration":0,"policyEpoch":0}',
      ),
      'line 2: "scan_started".key must be a catalog key "<identity>|<tenant>.<role>"',
    ],
    [
      'a disclosure without tools',
      withLine(
        2,
        `{"seq":0,"t":0,"src":"world","type":"disclosure","session":"p","server":"s0","audience":"acme.dev","key":"id|acme.dev","generation":1,"snapshotDigest":"${HEX}"}`,
      ),
      'line 2: "disclosure" has no field "tools"',
    ],
    [
      'a disclosure with a negative generation',
      withLine(
        2,
        `{"seq":0,"t":0,"src":"world","type":"disclosure","session":"p","server":"s0","audience":"acme.dev","key":"id|acme.dev","generation":-1,"snapshotDigest":"${HEX}","tools":[]}`,
      ),
      'line 2: "disclosure".generation must be a non-negative integer',
    ],
    [
      'a defect_planted whose digest is not hex',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"world","type":"defect_planted","server":"s0","digest":"c","defect":"REMOTE_REF"}',
      ),
      'line 2: "defect_planted".digest must be 64 lowercase hex digits',
    ],
    [
      'an identity_rotated without boot',
      withLine(2, '{"seq":0,"t":0,"src":"world","type":"identity_rotated","server":"s0","identity":"id2"}'),
      'line 2: "identity_rotated" has no field "boot"',
    ],
    [
      'a server_disabled written by the world',
      withLine(2, '{"seq":0,"t":0,"src":"world","type":"server_disabled","key":"id|acme.dev","reason":"R"}'),
      'line 2: "server_disabled" must have src "core", found "world"',
    ],
    [
      'a server_disabled without a catalog key',
      withLine(2, '{"seq":0,"t":0,"src":"core","type":"server_disabled","key":"id","reason":"R"}'),
      'line 2: "server_disabled".key must be a catalog key "<identity>|<tenant>.<role>"',
    ],
    [
      'a publish_refused without code',
      withLine(2, '{"seq":0,"t":0,"src":"core","type":"publish_refused","key":"id|acme.dev","scanId":"x"}'),
      'line 2: unknown event type "publish_refused" (not in catsim.trace.v1)',
    ],
    [
      'a key_quarantined with a numeric reason',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"core","type":"key_quarantined","audience":"acme.dev","scanId":"x","reason":7}',
      ),
      'line 2: unknown event type "key_quarantined" (not in catsim.trace.v1)',
    ],
    [
      'a disclosure_refused without session',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"world","type":"disclosure_refused","server":"s0","audience":"acme.dev","code":"CATALOG_EXPIRED"}',
      ),
      'line 2: "disclosure_refused" has no field "session"',
    ],
    [
      'a disconnected without audience',
      withLine(2, '{"seq":0,"t":0,"src":"world","type":"disconnected","server":"s0"}'),
      'line 2: "disconnected" has no field "audience"',
    ],
    [
      'an effect class that is not a string',
      withLine(2, '{"seq":0,"t":0,"src":"world","type":"effect_policy","classes":{"a":1}}'),
      'line 2: "effect_policy".classes["a"] must be one of "READ", "RESERVATION", "WRITE", "DESTRUCTIVE"',
    ],
    [
      'a policy_changed without revoked',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"world","type":"policy_changed","audience":"acme.dev","epoch":2,"grants":[],"granted":[]}',
      ),
      'line 2: "policy_changed" has no field "revoked"',
    ],
    [
      'a policy_seen written by the world',
      withLine(2, '{"seq":0,"t":0,"src":"world","type":"policy_seen","audience":"acme.dev","epoch":2,"via":"poll"}'),
      'line 2: "policy_seen" must have src "core", found "world"',
    ],
    [
      'a probe without expectAdmit',
      withLine(
        2,
        `{"seq":0,"t":0,"src":"world","type":"plan_made","session":"p","planId":"p0","key":"id|acme.dev","generation":1,"snapshotDigest":"${HEX}","tool":"a","descriptorDigest":"${HEX}","kind":"probe","expectAdmit":null}`,
      ),
      'line 2: "plan_made".expectAdmit must be a boolean for kind "probe"',
    ],
    [
      'a call_executed with a numeric leaseId',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"world","type":"call_executed","server":"s0","audience":"acme.dev","tool":"a","descriptorDigest":null,"leaseId":7,"pin":null,"revision":3}',
      ),
      'line 2: "call_executed".leaseId must be a string or null',
    ],
    [
      'a gate_decision whose plan digest is not hex',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"core","type":"gate_decision","callId":"c","planId":"p0","session":"p","key":"id|acme.dev","tool":"a","planDescriptorDigest":"x","generation":null,"descriptorDigest":null,"policyEpoch":1,"decision":"ADMIT"}',
      ),
      'line 2: "gate_decision".planDescriptorDigest must be 64 lowercase hex digits',
    ],
    [
      'a scan_ended with a code outside its set',
      withLine(2, '{"seq":0,"t":0,"src":"core","type":"scan_ended","scanId":"x","state":"DONE","reason":"OK"}'),
      'line 2: "scan_ended".state must be one of "SNAPSHOT_PROVEN", "UNVERSIONED_OBSERVATION", "INCOMPLETE", "QUARANTINED"',
    ],
    [
      'a page_read whose cursorIn is a number',
      withLine(
        2,
        `{"seq":0,"t":0,"src":"core","type":"page_read","scanId":"x","cursorIn":7,"cursorOut":null,"revision":null,"pageDigest":"${HEX}","toolCount":0,"recheck":false}`,
      ),
      'line 2: "page_read".cursorIn must be a string or null',
    ],
    [
      'a receipt_outcome without leaseId',
      withLine(2, '{"seq":0,"t":0,"src":"core","type":"receipt_outcome","outcome":"ok"}'),
      'line 2: "receipt_outcome" has no field "leaseId"',
    ],
    [
      'a snapshot_confirmed (no longer part of the format)',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"core","type":"snapshot_confirmed","key":"id|acme.dev","scanId":"x","generation":1}',
      ),
      'line 2: unknown event type "snapshot_confirmed" (not in catsim.trace.v1)',
    ],
    [
      'a revision whose view names a tool with a number',
      withLine(
        2,
        `{"seq":0,"t":0,"src":"world","type":"revision","server":"s0","revision":1,"views":{"acme.dev":[{"name":1,"digest":"${HEX}"}]}}`,
      ),
      'line 2: "revision".views["acme.dev"][0].name must be a string',
    ],
    [
      'a receipt whose disclosure is neither an object nor null',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"core","type":"receipt","callId":"c","leaseId":"l","key":"id|acme.dev","tool":"a","disclosure":7,"pin":null}',
      ),
      'line 2: "receipt".disclosure must be an object or null',
    ],
    [
      'a receipt without disclosure',
      withLine(
        2,
        '{"seq":0,"t":0,"src":"core","type":"receipt","callId":"c","leaseId":"l","key":"id|acme.dev","tool":"a","generation":1,"descriptorDigest":null,"policyEpoch":1,"pin":null}',
      ),
      'line 2: "receipt" has no field "disclosure"',
    ],
  ])('refuses %s', (_name, text, message) => {
    expect(parseError(text).message).toBe(message);
  });

  it('reads back every event type of docs/TRACE.md as the builder wrote it', () => {
    const { builder } = disclosureRound();
    const trace = parseTrace(builder.jsonl());
    expect(trace).toEqual(builder.build());
    expect(new Set(trace.events.map((event) => event.type))).toEqual(
      new Set([
        'server_up',
        'defect_planted',
        'revision',
        'session_opened',
        'disclosure_refused',
        'scan_started',
        'page_served',
        'page_read',
        'scan_ended',
        'published',
        'disclosure',
        'disconnected',
        'quiet',
        'round_end',
      ]),
    );
  });

  it('reads back every admission event type of docs/TRACE.md as the builder wrote it', () => {
    const { builder } = admissionRound();
    builder.confirmation(DEV_SESSION, 'p2');
    builder.callRefusedByServer({ audience: 'acme.dev', tool: 'a', leaseId: 'lease-p2', code: 'BAD_LEASE' });
    const trace = parseTrace(builder.jsonl());
    expect(trace).toEqual(builder.build());
    const types = new Set<string>(trace.events.map((event) => event.type));
    for (const type of [
      'effect_policy',
      'policy_changed',
      'policy_push',
      'plan_made',
      'confirmation',
      'call_executed',
      'call_refused_by_server',
      'policy_seen',
      'gate_decision',
      'receipt',
      'receipt_outcome',
    ]) {
      expect(types.has(type), type).toBe(true);
    }
  });

  it("leaves a receipt's binding fields to I6: an unbound receipt parses, and is judged", () => {
    const lines = admissionRound().builder.jsonl().trimEnd().split('\n');
    const receiptLine = 28 + 1 + 1;
    const receipt = JSON.parse(lines[receiptLine - 1]!) as Record<string, unknown>;
    expect(receipt['type']).toBe('receipt');
    const { policyEpoch: _dropped, ...unbound }: Record<string, unknown> = {
      ...receipt,
      generation: 'one',
      descriptorDigest: null,
    };
    lines[receiptLine - 1] = JSON.stringify(unbound);
    expect(checkTrace(parseTrace(lines.join('\n'))).violations.map((v) => [v.invariant, v.code, v.seq])).toEqual([
      ['I6', 'RECEIPT_UNBOUND', 29],
    ]);
  });

  it('reads a header without revocationBoundMs (older traces) and refuses a malformed one', () => {
    const lines = cleanLines();
    const header = JSON.parse(lines[0]!) as { bounds: Record<string, unknown> };
    const { revocationBoundMs: _dropped, ...older } = header.bounds;
    lines[0] = JSON.stringify({ ...header, bounds: older });
    expect(parseTrace(lines.join('\n')).header.bounds).not.toHaveProperty('revocationBoundMs');
    lines[0] = JSON.stringify({ ...header, bounds: { ...older, revocationBoundMs: -1 } });
    expect(parseError(lines.join('\n')).message).toBe(
      'line 1: header.bounds.revocationBoundMs must be a non-negative integer',
    );
  });

  it('accepts a publish without rolledBackFrom (older traces) and judges it the same', () => {
    const { builder, seqs } = disclosureRound();
    let text = builder.jsonl();
    for (const seq of [seqs.devPublish, seqs.opsPublish, seqs.dev4Publish, seqs.dev4bPublish])
      text = editPublish(text, seq, withoutRolledBackFrom);
    const trace = parseTrace(text);
    expect(Object.hasOwn(trace.events[seqs.devPublish]!, 'rolledBackFrom')).toBe(false);
    expect(checkTrace(trace)).toEqual(checkTrace(builder.build()));
  });

  it('refuses a rolledBackFrom that is neither a generation nor null', () => {
    const { builder, seqs } = disclosureRound();
    const text = editPublish(builder.jsonl(), seqs.rollback, (event) => ({ ...event, rolledBackFrom: '1' }));
    expect(parseError(text).message).toBe(
      `line ${seqs.rollback + 2}: "published".rolledBackFrom must be a non-negative integer or null`,
    );
  });

  it('refuses a second round_end', () => {
    const lines = cleanLines();
    const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    lines.push(JSON.stringify({ ...last, seq: Number(last['seq']) + 1 }));
    expect(parseError(lines.join('\n')).message).toBe(
      `line ${lines.length}: second "round_end" (the first is on line ${lines.length - 1})`,
    );
  });

  it.each([
    [
      'an unsupported schema',
      (h: Record<string, unknown>) => ({ ...h, schema: 'catsim.trace.v0' }),
      'line 1: unsupported schema "catsim.trace.v0" (expected "catsim.trace.v1")',
    ],
    [
      'a missing bound',
      (h: Record<string, unknown>) => ({ ...h, bounds: { pageCountMax: 1 } }),
      'line 1: header.bounds has no field "byteCountMax"',
    ],
    [
      'a mistyped round',
      (h: Record<string, unknown>) => ({ ...h, round: '17' }),
      'line 1: header.round must be a non-negative integer',
    ],
  ])('refuses a header with %s', (_name, edit, message) => {
    const lines = cleanLines();
    lines[0] = JSON.stringify(edit(JSON.parse(lines[0]!) as Record<string, unknown>));
    expect(parseError(lines.join('\n')).message).toBe(message);
  });
});
