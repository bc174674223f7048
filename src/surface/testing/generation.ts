/**
 * Test support for the tool surface stage: a published generation built from descriptors by the
 * real snapshot code (content checks included), a grant, admission facts, and a model-call port
 * that records what it was handed. Not part of the library.
 */
import { keyName, type AudienceClass, type CatalogKey } from '../../keys.ts';
import type { GenerationRecord } from '../../registry/store.ts';
import { CoreMemos } from '../../memos.ts';
import { pageDigest } from '../../snapshot/digests.ts';
import { buildSnapshot, digestOfSnapshot } from '../../snapshot/snapshot.ts';
import { DEFAULT_TRUST } from '../../validation/trust.ts';
import type { AdmissionFacts } from '../admission-facts.ts';
import type { DispatchedRequest } from '../model-request.ts';
import type { SealedDispatchRecord } from '../sealed-dispatch-record.ts';

/** The audience of every test generation. */
export const AUDIENCE: AudienceClass = { tenant: 'acme', role: 'dev' };
/** The catalog key of every test generation. */
export const KEY: CatalogKey = { identity: 'fp:a', ...AUDIENCE };

/** The memos the test generations' snapshots are built with. */
const MEMOS = new CoreMemos();

/** A descriptor as a server would list it. */
export function descriptor(
  name: string,
  description: string,
  properties: Record<string, unknown>,
): Record<string, unknown> {
  return { name, description, inputSchema: { type: 'object', properties, required: Object.keys(properties) } };
}

/** Generation `catalogGeneration` (ELIGIBLE, revision 7) of {@link KEY} listing `tools` on one page. */
export function generationOf(tools: readonly unknown[], catalogGeneration = 1): GenerationRecord {
  const copies = structuredClone([...tools]);
  const page = { cursorIn: null, cursorOut: null, revision: 7, tools: copies };
  const snapshot = buildSnapshot(
    {
      key: KEY,
      endpointDigest: 'endpoint',
      protocolVersion: '2025-11-25',
      scanId: 'scan-1',
      discoveryState: 'SNAPSHOT_PROVEN',
      discoveryStartedAt: 0,
      policyEpoch: 1,
      sourceRevision: 7,
      generationTtlMs: 60_000,
      trust: DEFAULT_TRUST,
      pages: [{ ...page, pageDigest: pageDigest(page) }],
    },
    MEMOS,
  );
  return {
    key: keyName(KEY),
    catalogGeneration,
    status: 'ELIGIBLE',
    snapshot,
    snapshotDigest: digestOfSnapshot(snapshot),
    publishedAt: 0,
    rolledBackFrom: null,
  };
}

/** Facts for session `s1`: `generation` and a grant of `granted` at epoch 3. */
export function factsOf(
  generation: GenerationRecord,
  granted: readonly string[],
  extra: Partial<AdmissionFacts> = {},
): AdmissionFacts {
  return { session: 's1', generation, grant: { audience: AUDIENCE, policyEpoch: 3, tools: granted }, ...extra };
}

/** A model-call port that records every hand-over and answers `'sent'`. */
export function recordingModel(): {
  sent: { request: DispatchedRequest<unknown>; seal: SealedDispatchRecord }[];
  send: (request: DispatchedRequest<unknown>, seal: SealedDispatchRecord) => string;
} {
  const sent: { request: DispatchedRequest<unknown>; seal: SealedDispatchRecord }[] = [];
  return {
    sent,
    send: (request, seal) => {
      sent.push({ request, seal });
      return 'sent';
    },
  };
}
