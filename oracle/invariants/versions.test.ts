/**
 * I35 on hand-built traces: s0 presents ID0, then ID1 (a rotation); the operator described s0
 * (`operator_manifest`, tool ids `s0.<name>`, both identities), not s1. Receipts of calls to s0
 * must each name a version, with the operator's tool id, and one version must bind one definition
 * (descriptor and manifest digest), whichever identity the call went to; receipts of s1 are not
 * judged, and a core that names no version in any receipt is not judged at all.
 */
import { describe, expect, it } from 'vitest';
import { checkTrace } from '../check.ts';
import { digestOf, ID0, ID1, ID_S1, TraceBuilder } from '../testing/trace-builder.ts';

const D1 = digestOf('read_file#1');
const D2 = digestOf('read_file#2');
const M1 = digestOf('manifest#1');
const M2 = digestOf('manifest#2');

interface Named {
  identity?: string;
  tool?: string;
  descriptorDigest?: string;
  version?: { toolId: string; version: number; manifestDigest: string } | null;
}

/** The world's facts: s0 up at ID0, described by the operator under ID0 and ID1; s1 up. */
function described(): TraceBuilder {
  const b = new TraceBuilder();
  b.emit('world', 'operator_manifest', { server: 's0', identities: [ID0, ID1], toolIdPrefix: 's0.' });
  b.serverUp('s0', ID0);
  b.serverUp('s1', ID_S1);
  return b;
}

/** A receipt of lease `lease` with what it names (a `version` of undefined leaves the field out). */
function receipt(b: TraceBuilder, lease: string, named: Named): number {
  const tool = named.tool ?? 'read_file';
  return b.emit('core', 'receipt', {
    callId: `call-${lease}`,
    leaseId: lease,
    key: `${named.identity ?? ID0}|acme.dev`,
    tool,
    generation: 1,
    descriptorDigest: named.descriptorDigest ?? D1,
    policyEpoch: 1,
    disclosure: { generation: 1, snapshotDigest: digestOf('snapshot:1') },
    pin: 7,
    ...(named.version === undefined ? {} : { version: named.version }),
  });
}

const v = (version: number, manifestDigest: string, toolId = 's0.read_file') => ({ toolId, version, manifestDigest });

/** I35's violations of `b` as `[seq, code, evidence]`, and its work count. */
function judged(b: TraceBuilder): { found: Array<[number | null, string, string]>; checked: number } {
  b.roundEnd();
  const verdict = checkTrace(b.build());
  return {
    found: verdict.violations.filter((x) => x.invariant === 'I35').map((x) => [x.seq, x.code, x.evidence]),
    checked: verdict.checked.I35,
  };
}

describe('I35: every receipt names the version that ran', () => {
  it('holds: one definition per version, a new version for a new description, across a rotation', () => {
    const b = described();
    receipt(b, 'l0', { version: v(1, M1) });
    receipt(b, 'l1', { identity: ID1, version: v(1, M1) });
    receipt(b, 'l2', { descriptorDigest: D2, version: v(2, M2) });
    receipt(b, 'l3', { identity: ID_S1, tool: 'echo' });
    expect(judged(b)).toEqual({ found: [], checked: 3 });
  });

  it('a version naming a second definition fails at the receipt that names it', () => {
    const b = described();
    receipt(b, 'l0', { version: v(1, M1) });
    const second = receipt(b, 'l1', { descriptorDigest: D2, version: v(1, M1) });
    expect(judged(b).found).toEqual([
      [
        second,
        'ONE_VERSION_TWO_DEFINITIONS',
        `receipt l1 (seq ${second}) names s0.read_file v1 for descriptor ${D2.slice(0, 12)} (manifest ${M1.slice(0, 12)}), but receipt l0 (seq 3) named that version for descriptor ${D1.slice(0, 12)} (manifest ${M1.slice(0, 12)}): a changed definition under the same version`,
      ],
    ]);
  });

  it('a receipt naming no version, or another tool id, fails', () => {
    const b = described();
    receipt(b, 'l0', { version: v(1, M1) });
    const missing = receipt(b, 'l1', {});
    const none = receipt(b, 'l2', { version: null });
    const wrong = receipt(b, 'l3', { version: v(1, M1, 'fp.read_file') });
    expect(judged(b)).toEqual({
      found: [
        [
          missing,
          'RECEIPT_WITHOUT_VERSION',
          `receipt l1 (seq ${missing}) of a call of "read_file" under ${ID0}|acme.dev names no version, though the operator described that server`,
        ],
        [
          none,
          'RECEIPT_WITHOUT_VERSION',
          `receipt l2 (seq ${none}) of a call of "read_file" under ${ID0}|acme.dev names no version, though the operator described that server`,
        ],
        [
          wrong,
          'WRONG_TOOL_ID',
          `receipt l3 (seq ${wrong}) names tool id "fp.read_file" for "read_file"; the operator's file gives "s0.read_file"`,
        ],
      ],
      checked: 4,
    });
  });

  it('judges nothing for a core that names no version in any receipt, or in a round without a manifest', () => {
    const b = described();
    receipt(b, 'l0', {});
    expect(judged(b)).toEqual({ found: [], checked: 0 });
    const plain = new TraceBuilder();
    plain.serverUp('s0', ID0);
    receipt(plain, 'l0', { version: v(1, M1) });
    receipt(plain, 'l1', { descriptorDigest: D2, version: v(1, M1) });
    expect(judged(plain)).toEqual({ found: [], checked: 0 });
  });
});
