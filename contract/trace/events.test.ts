import { describe, expect, it } from 'vitest';
import type { EventKind } from '../internal/event.ts';
import { TRACE_EVENTS } from './events.ts';
import { EVENT_SOURCES } from './event-sources.ts';
import { eventProblem } from './event-problem.ts';

const KINDS = Object.entries(TRACE_EVENTS) as [string, EventKind][];

describe('the events of catsim.trace.v1', () => {
  it('are keyed by their own type, and each core event names the invariants that judge it', () => {
    for (const [type, kind] of KINDS) {
      expect(kind.name).toBe(type);
      expect(kind.doc.meaning.length).toBeGreaterThan(0);
      expect(kind.doc.judgedBy !== undefined).toBe(kind.src === 'core');
    }
  });

  it('are 46 world events (6 of them the tool surface ones, 2 of host restarts, 1 the delivered list_changed, 1 the call sent, 1 the rollback trigger, 1 a black-box model request, 4 of the 2026-07-28 listen stream, requested, acknowledged, silenced and ended, 1 the emergency disable, 1 the operator manifest, 1 the deprecation, 1 the alias order, 1 the result sent, 1 the lifecycle order, 1 the contract change, 2 of a primary outage, down and up) and 10 core events', () => {
    expect([...EVENT_SOURCES.values()].filter((src) => src === 'world').length).toBe(46);
    expect(KINDS.filter(([, kind]) => kind.src === 'core').map(([type]) => type)).toEqual([
      'scan_started',
      'page_read',
      'scan_ended',
      'published',
      'cas_conflict',
      'server_disabled',
      'policy_seen',
      'gate_decision',
      'receipt',
      'receipt_outcome',
    ]);
  });

  it('check the rules across fields only once every field has its kind', () => {
    const hex = 'ab'.repeat(32);
    const probe = {
      seq: 0,
      t: 0,
      src: 'world',
      type: 'plan_made',
      session: 's',
      planId: 'p0',
      key: 'id|a.b',
      generation: 1,
      snapshotDigest: hex,
      tool: 't',
      descriptorDigest: hex,
      kind: 'probe',
      expectAdmit: null,
    };
    expect(eventProblem(probe)).toBe('"plan_made".expectAdmit must be a boolean for kind "probe"');
    expect(eventProblem({ ...probe, tool: 1 })).toBe('"plan_made".tool must be a string');
    expect(eventProblem({ ...probe, expectAdmit: true })).toBeNull();
    expect(eventProblem({ ...probe, kind: 'normal' })).toBeNull();
  });

  it('names the first problem in field order, then unknown fields', () => {
    const event = { seq: -1, t: 'x', src: 'core', type: 'receipt_outcome', leaseId: 1, outcome: 'ok', extra: true };
    expect(eventProblem(event)).toBe('"receipt_outcome".seq must be a non-negative integer');
    expect(eventProblem({ ...event, seq: 0, t: 0, leaseId: 'l' })).toBe(
      '"receipt_outcome" has an unknown field "extra"',
    );
    expect(eventProblem({ seq: 0, t: 0, src: 'core', type: 7 })).toBe('event.type must be a string');
  });
});
