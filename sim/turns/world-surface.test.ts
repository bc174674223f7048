/**
 * The world's own baseline of a disclosure (F22 ground truth): content checks by the world's
 * reading, grants now, contested grants marked, an identical repeat of a name once.
 */
import { describe, expect, it } from 'vitest';
import { handServer, step, tool, tools } from '../../test/support/hand-plan.ts';
import { worldDescriptorDigest } from '../trace/digests.ts';
import { surfaceDigest, worldBaseline } from './world-surface.ts';

const disclosed = (...descriptors: Record<string, unknown>[]) =>
  descriptors.map((d) => ({ name: String(d.name), descriptorDigest: worldDescriptorDigest(d) }));

describe('worldBaseline', () => {
  it('keeps granted tools in snapshot order, marks contested ones, drops ungranted and planted ones', () => {
    const [read, write, move] = tools('read_file', 'write_file', 'move_file');
    const planted = { ...tool('list_directory'), name: 'bad name' };
    const server = {
      ...handServer({ history: [step(0, 1, { 'acme.dev': [read!, write!, move!, planted] })] }),
      planted: [{ defect: 'BAD_NAME' as const, descriptor: planted }],
    };
    const baseline = worldBaseline(
      server,
      disclosed(read!, write!, move!, planted),
      new Set(['read_file', 'move_file', 'bad name']),
      new Set(['write_file']),
    );
    expect(baseline.map((t) => [t.name, t.contested])).toEqual([
      ['read_file', false],
      ['write_file', true],
      ['move_file', false],
    ]);
    expect(baseline[0]?.digest).toBe(
      surfaceDigest({ name: 'read_file', description: read!.description, inputSchema: read!.inputSchema }),
    );
  });

  it('a name listed twice with the same descriptor counts once; with different descriptors, not at all', () => {
    const read = tool('read_file');
    const other = { ...tool('read_file'), description: 'Another read_file.' };
    const server = handServer({ history: [step(0, 1, { 'acme.dev': [read, other] })] });
    const all = new Set(['read_file']);
    expect(worldBaseline(server, disclosed(read, read), all, new Set()).map((t) => t.name)).toEqual(['read_file']);
    expect(worldBaseline(server, disclosed(read, other), all, new Set())).toEqual([]);
  });

  it('a planted DUPLICATE_NAME twin is a duplicate only next to its namesake (seed 1 round 13504)', () => {
    // Round 13504: an unversioned walk of s0 (acmex.ops) missed the last page at revision 429, so
    // the published generation held CANCEL-BOOKING-S0T without its planted twin
    // cancel_booking_s0t. The core's content check rightly passed it; the world's baseline
    // dropped it for being planted, and I22/I23/I25/I26 failed a correct core.
    const upper = { ...tool('cancel_booking'), name: 'CANCEL-BOOKING-S0T' };
    const lower = { ...tool('cancel_booking'), name: 'cancel_booking_s0t', description: 'The twin.' };
    const read = tool('read_file');
    const server = {
      ...handServer({ history: [step(0, 1, { 'acme.dev': [upper, read, lower] })] }),
      planted: [
        { defect: 'DUPLICATE_NAME' as const, descriptor: upper },
        { defect: 'DUPLICATE_NAME' as const, descriptor: lower },
      ],
    };
    const all = new Set(['CANCEL-BOOKING-S0T', 'cancel_booking_s0t', 'read_file']);
    expect(worldBaseline(server, disclosed(upper, read), all, new Set()).map((t) => t.name)).toEqual([
      'CANCEL-BOOKING-S0T',
      'read_file',
    ]);
    expect(worldBaseline(server, disclosed(upper, read, lower), all, new Set()).map((t) => t.name)).toEqual([
      'read_file',
    ]);
  });
});
