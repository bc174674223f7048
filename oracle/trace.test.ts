import { describe, expect, it } from 'vitest';
import { checkTrace } from './check.ts';
import { cleanRound } from './testing/scenarios.ts';
import { ID0 } from './testing/trace-builder.ts';
import { TraceFormatError, parseTrace, type Trace } from './trace.ts';

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

describe('parseTrace', () => {
  it('reads back exactly what the builder wrote', () => {
    const builder = cleanRound();
    expect(parseTrace(builder.jsonl())).toEqual(builder.build());
  });

  it('accepts CRLF line ends and no trailing newline', () => {
    const builder = cleanRound();
    expect(parseTrace(builder.jsonl().trimEnd().replaceAll('\n', '\r\n'))).toEqual(builder.build());
  });

  it('keeps unknown event types and unknown fields without interpreting them', () => {
    const lines = cleanLines();
    const last = lines.length - 1;
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...header, extra: { nested: true } });
    const roundEnd = JSON.parse(lines[last]!) as Record<string, unknown>;
    lines.splice(last, 1,
      JSON.stringify({ seq: roundEnd['seq'], t: roundEnd['t'], src: 'world', type: 'probe_call', tool: 'a', admitted: true }),
      JSON.stringify({ ...roundEnd, seq: Number(roundEnd['seq']) + 1, note: 'kept' }));
    const trace: Trace = parseTrace(lines.join('\n'));
    expect(trace.events.at(-2)).toEqual({ seq: roundEnd['seq'], t: roundEnd['t'], src: 'world', type: 'probe_call', tool: 'a', admitted: true });
    expect(trace.events.at(-1)).toMatchObject({ type: 'round_end', note: 'kept' });
    expect(checkTrace(trace).violations).toEqual([]);
  });

  it('reads the standard world with one session_opened per audience before any scan', () => {
    const events = parseTrace(cleanRound().jsonl()).events.slice(0, 5);
    expect(events.map((e) => [e.seq, e.type, 'audience' in e ? e.audience : null])).toEqual([
      [0, 'server_up', null], [1, 'revision', null], [2, 'session_opened', 'acme.dev'], [3, 'session_opened', 'acme.ops'], [4, 'scan_started', null],
    ]);
    expect(events[2]).toEqual({ seq: 2, t: 20, src: 'world', type: 'session_opened', server: 's0', audience: 'acme.dev', identity: ID0 });
  });

  it('treats a known type under the wrong src as a format error', () => {
    expect(parseError(withLine(2, '{"seq":0,"t":0,"src":"core","type":"server_up"}')).message)
      .toBe('line 2: "server_up" event must have src "world", found "core"');
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
    expect(parseError(lines.join('\n')).message)
      .toBe('line 1: missing header (expected type "header", found type "server_up")');
  });

  it.each([
    ['an event without a type', withLine(2, '{"seq":0,"t":0,"src":"world"}'), 'line 2: event has no "type"'],
    ['a JSON value that is not an object', withLine(2, '[1,2]'), 'line 2: expected a JSON object'],
    ['an empty line', withLine(2, ''), 'line 2: empty line'],
    ['a seq out of order', withLine(2, EVENT), 'line 2: "seq" is 1, expected 0'],
    ['a missing seq', withLine(2, '{"t":0,"src":"world","type":"quiet"}'), 'line 2: event has no "seq"'],
    ['a negative t', withLine(2, '{"seq":0,"t":-1,"src":"world","type":"quiet"}'), 'line 2: event field "t" must be a non-negative integer'],
    ['time going backwards', [cleanLines()[0], '{"seq":0,"t":5,"src":"world","type":"quiet"}', '{"seq":1,"t":4,"src":"core","type":"x"}'].join('\n'), 'line 3: "t" is 4, earlier than the previous event\'s 5'],
    ['a missing field', withLine(2, '{"seq":0,"t":0,"src":"world","type":"server_up","server":"s0"}'), 'line 2: "server_up" event has no "identity"'],
    ['a mistyped field', withLine(2, '{"seq":0,"t":0,"src":"world","type":"round_end","status":"done","reason":"quiet"}'), 'line 2: "round_end" field "status" must be "settled" or "undecided"'],
    ['a digest that is not hex', withLine(2, '{"seq":0,"t":0,"src":"world","type":"page_served","server":"s0","audience":"a.b","scanId":null,"cursorIn":null,"cursorOut":null,"revision":1,"reported":1,"tools":["XYZ"],"pageDigest":"00"}'), 'line 2: "page_served" field "tools"[0] must be 64 lowercase hex digits'],
    ['a session_opened without identity', withLine(2, '{"seq":0,"t":0,"src":"world","type":"session_opened","server":"s0","audience":"acme.dev"}'), 'line 2: "session_opened" event has no "identity"'],
    ['a key without audience', withLine(2, '{"seq":0,"t":0,"src":"core","type":"scan_started","key":"abc","scanId":"x","expectedGeneration":0,"policyEpoch":0}'), 'line 2: "scan_started" field "key" must be "<identity>|<tenant>.<role>"'],
  ])('refuses %s', (_name, text, message) => {
    expect(parseError(text).message).toBe(message);
  });

  it('refuses a second round_end', () => {
    const lines = cleanLines();
    const last = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    lines.push(JSON.stringify({ ...last, seq: Number(last['seq']) + 1 }));
    expect(parseError(lines.join('\n')).message).toBe(`line ${lines.length}: second "round_end" (the first is on line ${lines.length - 1})`);
  });

  it.each([
    ['an unsupported schema', (h: Record<string, unknown>) => ({ ...h, schema: 'catsim.trace.v0' }), 'line 1: unsupported schema "catsim.trace.v0" (expected "catsim.trace.v1")'],
    ['a missing bound', (h: Record<string, unknown>) => ({ ...h, bounds: { pageCountMax: 1 } }), 'line 1: header field "bounds" has no "byteCountMax"'],
    ['a mistyped round', (h: Record<string, unknown>) => ({ ...h, round: '17' }), 'line 1: header field "round" must be a non-negative integer'],
  ])('refuses a header with %s', (_name, edit, message) => {
    const lines = cleanLines();
    lines[0] = JSON.stringify(edit(JSON.parse(lines[0]!) as Record<string, unknown>));
    expect(parseError(lines.join('\n')).message).toBe(message);
  });
});
