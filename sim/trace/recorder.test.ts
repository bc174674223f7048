import { describe, expect, it } from 'vitest';
import type { CoreObservation } from '../../contract/trace/types.ts';
import { createHash } from 'node:crypto';
import { TraceRecorder, traceDigest, traceText } from './recorder.ts';

/** A recorder on a clock that reads 5 ms. */
function recorder(): TraceRecorder {
  return new TraceRecorder(() => 5);
}

const HEX = 'ab'.repeat(32);

describe('TraceRecorder', () => {
  it('stamps seq, t and src in that order before the event fields', () => {
    const r = recorder();
    r.world('quiet');
    r.core.emit({ type: 'receipt_outcome', leaseId: 'lease-0', outcome: 'ok' });
    expect(r.events.map((event) => JSON.stringify(event))).toEqual([
      '{"seq":0,"t":5,"src":"world","type":"quiet"}',
      '{"seq":1,"t":5,"src":"core","type":"receipt_outcome","leaseId":"lease-0","outcome":"ok"}',
    ]);
    expect(r.breach).toBeNull();
  });

  it('copies an observation, so a core changing it afterwards changes nothing recorded', () => {
    const r = recorder();
    const pages: { cursorIn: string | null; cursorOut: string | null; pageDigest: string }[] = [
      { cursorIn: null, cursorOut: null, pageDigest: HEX },
    ];
    r.core.emit({
      type: 'published',
      key: 'id|acme.dev',
      scanId: 's',
      generation: 1,
      status: 'ELIGIBLE',
      sourceRevision: 3,
      snapshotDigest: HEX,
      pageRoot: HEX,
      pages,
      tools: [],
      expiresAt: 10,
      rolledBackFrom: null,
    });
    pages.push({ cursorIn: 'x', cursorOut: null, pageDigest: HEX });
    expect(r.events[0]).toMatchObject({ pages: [{ cursorIn: null, cursorOut: null, pageDigest: HEX }] });
    expect(r.breach).toBeNull();
  });

  it.each([
    [
      'a wrong field',
      { type: 'receipt_outcome', leaseId: 7, outcome: 'ok' },
      '"receipt_outcome".leaseId must be a string',
    ],
    [
      'a code outside its set',
      { type: 'receipt_outcome', leaseId: 'l', outcome: 'fine' },
      '"receipt_outcome".outcome must be one of "ok", "error", "refused", "unknown"',
    ],
    [
      'an unknown type',
      { type: 'snapshot_confirmed', key: 'id|acme.dev', scanId: 's', generation: 1 },
      'unknown event type "snapshot_confirmed" (not in catsim.trace.v1)',
    ],
    [
      'a world event',
      { type: 'revision', server: 's0', revision: 1, views: {} },
      '"revision" must have src "world", found "core"',
    ],
    [
      'its own src',
      { src: 'world', type: 'revision', server: 's0', revision: 1, views: {} },
      'an observation must not carry "src" (the sink stamps seq, t and src)',
    ],
    [
      'an unknown field',
      { type: 'receipt_outcome', leaseId: 'l', outcome: 'ok', latencyMs: 3 },
      '"receipt_outcome" has an unknown field "latencyMs"',
    ],
    [
      'a missing field (undefined counts as absent, as in JSON)',
      { type: 'receipt_outcome', leaseId: undefined, outcome: 'ok' },
      '"receipt_outcome" has no field "leaseId"',
    ],
  ])(
    'keeps the first observation with %s as the breach, and leaves it out of the trace',
    (_name, observation, problem) => {
      const r = recorder();
      r.world('quiet');
      r.core.emit(observation as unknown as CoreObservation);
      r.core.emit({ type: 'receipt_outcome', leaseId: 'lease-1', outcome: 'ok' });
      expect(r.breach).toEqual({ seq: 1, problem });
      expect(r.events.map((event) => event.type)).toEqual(['quiet']);
    },
  );

  it('writes JSON lines, header first', () => {
    const r = recorder();
    r.world('round_end', { status: 'settled', reason: 'quiet' });
    const header = {
      type: 'header',
      schema: 'catsim.trace.v1',
      seed: '1',
      round: 0,
      scenario: 'default',
      core: 'reference',
      bounds: {
        pageCountMax: 1,
        byteCountMax: 1,
        scanTimeoutMs: 1,
        latencyMsMax: 1,
        tHealMs: 1,
        tEndMs: 2,
        generationTtlMs: 1,
        retryBackoffMsMax: 1,
      },
      faults: [],
    } as const;
    expect(traceText(header, r.events).split('\n').slice(1)).toEqual([
      '{"seq":0,"t":5,"src":"world","type":"round_end","status":"settled","reason":"quiet"}',
      '',
    ]);
  });

  it('digests exactly the trace text it writes (UTF-8 bytes), for a long trace and an empty one', () => {
    const r = recorder();
    // About 300 KB, with non-ASCII text so that UTF-8 bytes differ from UTF-16 code units.
    for (let i = 0; i < 3000; i += 1)
      r.core.emit({ type: 'receipt_outcome', leaseId: `lease-${i}-${'é€𝄞'.repeat(i % 40)}`, outcome: 'ok' });
    const header = {
      type: 'header',
      schema: 'catsim.trace.v1',
      seed: '1',
      round: 0,
      scenario: 'default',
      core: 'reference',
      bounds: {
        pageCountMax: 1,
        byteCountMax: 1,
        scanTimeoutMs: 1,
        latencyMsMax: 1,
        tHealMs: 1,
        tEndMs: 2,
        generationTtlMs: 1,
        retryBackoffMsMax: 1,
      },
      faults: [],
    } as const;
    expect(r.breach).toBeNull();
    expect(traceDigest(header, r.events)).toBe(
      createHash('sha256').update(traceText(header, r.events), 'utf8').digest('hex'),
    );
    expect(traceDigest(header, [])).toBe(createHash('sha256').update(traceText(header, []), 'utf8').digest('hex'));
  });
});
