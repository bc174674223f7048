import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { ID0, TraceBuilder } from '../testing/trace-builder.ts';

/** The coalescing delay 300 ms and the back-off cap 2,000 ms: the bound is 2,000 ms. */
const BOUNDS = { listChangedDelayMs: 300 };

/** A modern server s0 (revision 1) and a builder at t=0. */
function modern(): TraceBuilder {
  const b = new TraceBuilder({ bounds: BOUNDS, stepMs: 0 });
  b.serverUp('s0', ID0, { traits: ['ERA:modern'] });
  b.revision('s0', 1, { 'acme.dev': ['echo'] });
  return b;
}

function opened(b: TraceBuilder, connection: number, listChanged = true): number {
  return b.emit('world', 'session_opened', {
    server: 's0',
    audience: 'acme.dev',
    identity: ID0,
    connection,
    listChanged,
  });
}

function listened(b: TraceBuilder, connection: number): number {
  return b.emit('world', 'listen_requested', { server: 's0', audience: 'acme.dev', connection, subscriptionId: '0' });
}

/** The I32 violations, as `code@seq`, and how many connections were judged. */
function i32(b: TraceBuilder): { found: string[]; checked: number } {
  b.at(Math.max(b.now(), 10_000)).roundEnd();
  const verdict = checkTrace(b.build());
  return {
    found: verdict.violations.filter((v) => v.invariant === 'I32').map((v) => `${v.code}@${v.seq}`),
    checked: verdict.checked.I32,
  };
}

describe('I32: the host sends subscriptions/listen on every modern connection', () => {
  it('holds for a listen sent before the session opened (the reference core) and one sent 2,000 ms after', () => {
    // Connection 1 is cut at 100, before its deadline (2,020): only connection 2 is judged.
    const b = modern();
    b.at(10);
    listened(b, 1);
    b.at(20);
    opened(b, 1);
    b.at(100).disconnected('s0', 'acme.dev');
    b.at(1_000);
    opened(b, 2);
    b.at(3_000);
    listened(b, 2);
    expect(i32(b)).toEqual({ found: [], checked: 1 });
  });

  it('a reconnect with no listen is caught at its session_opened; one a ms too late is caught too', () => {
    const b = modern();
    b.at(10);
    listened(b, 1);
    opened(b, 1);
    b.at(100).disconnected('s0', 'acme.dev');
    b.at(1_000);
    const second = opened(b, 2);
    b.at(3_001);
    listened(b, 2);
    expect(i32(b)).toEqual({ found: [`LISTEN_NOT_SENT@${second}`], checked: 1 });
  });

  it('a listen on another connection does not count for this one', () => {
    const b = modern();
    b.at(10);
    listened(b, 0);
    const first = opened(b, 1);
    expect(i32(b).found).toEqual([`LISTEN_NOT_SENT@${first}`]);
  });

  it('is not judged for a connection cut, replaced or outlived by the host before the bound, nor past the round end', () => {
    for (const end of ['cut', 'replaced', 'crash'] as const) {
      const b = modern();
      b.at(10);
      opened(b, 1);
      b.at(1_500);
      if (end === 'cut') b.disconnected('s0', 'acme.dev');
      if (end === 'replaced') {
        listened(b, 2);
        opened(b, 2);
      }
      if (end === 'crash') b.emit('world', 'host_crashed', { boot: 0, point: 'at_time', cut: null });
      expect(i32(b), end).toEqual({ found: [], checked: end === 'replaced' ? 1 : 0 });
    }
    const late = modern();
    late.at(9_000);
    opened(late, 1);
    expect(i32(late)).toEqual({ found: [], checked: 0 });
  });

  it('judges no legacy session, no server without tools.listChanged, and nothing without the coalescing delay', () => {
    const b = modern();
    b.sessionOpened('s0', 'acme.dev', ID0);
    opened(b, 1, false);
    expect(i32(b)).toEqual({ found: [], checked: 0 });
    const old = new TraceBuilder({ stepMs: 0 });
    old.serverUp('s0', ID0);
    old.emit('world', 'session_opened', {
      server: 's0',
      audience: 'acme.dev',
      identity: ID0,
      connection: 1,
      listChanged: true,
    });
    expect(i32(old)).toEqual({ found: [], checked: 0 });
  });
});
