/**
 * I35, every receipt names the version that ran (SPEC section 9; seed 004: "执行审计记录实际 tool
 * version、endpoint build 和 operation ID"; "修改 description 也可能改变模型选择行为，因此仍发布新
 * registry version"). In a round where the world handed the core an operator's manifest file of a
 * server (`operator_manifest`, F32) and the core names versions in its receipts (`receipt.version`
 * on at least one receipt), every receipt of a call to that server (its catalog key under one of
 * the identities the event lists) must:
 *
 * - name a version (`RECEIPT_WITHOUT_VERSION`: the field is missing or null);
 * - name the tool id the operator's file gives the tool (`toolIdPrefix` + the tool's name;
 *   `WRONG_TOOL_ID`);
 * - name a version that stands for one definition: every receipt naming the same (tool id,
 *   version) binds the same descriptor digest and the same manifest digest
 *   (`ONE_VERSION_TWO_DEFINITIONS`, anchored at the first receipt that names it with another).
 *   A description-only change (F32) is a new definition, so it must be a new version.
 *
 * What each receipt binds is held to the world elsewhere: its descriptor digest is the one the gate
 * admitted (I6), which is the active generation's (I8), which is what the server listed (I1). A
 * core that names no version in any receipt is not judged here (nothing is counted): it keeps no
 * tool versions, and each receipt of a call to a described server is then counted NOT JUDGED on
 * `versions` ({@link unversionedReceipts}, oracle/not-judged.ts), never passed. One work count per
 * receipt judged.
 */
import { parseCatalogKey } from '../catalog-key.ts';
import type { ReceiptEvent } from '../trace.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** I35: every receipt of a call to a described server names the version that ran, one version one definition. */
export function checkVersions(context: CheckContext, findings: Findings): void {
  const described = describedIdentities(context);
  if (described.size === 0) return;
  const receipts = context.observed.receipts;
  if (!namesVersions(receipts)) return;
  const definitions = new Map<string, { receipt: ReceiptEvent; definition: string }>();
  for (const receipt of receipts) {
    const prefix = described.get(parseCatalogKey(receipt.key).identity);
    if (prefix === undefined) continue;
    findings.count('I35');
    judgeReceipt(receipt, prefix, definitions, findings);
  }
}

/**
 * The receipts I35 could not judge because the core names no version in any receipt of the round:
 * those of calls to a server the operator described (F32's `operator_manifest`); 0 in a round
 * without a described server or where some receipt names a version (I35 judges those).
 */
export function unversionedReceipts(context: CheckContext): number {
  const described = describedIdentities(context);
  const receipts = context.observed.receipts;
  if (described.size === 0 || namesVersions(receipts)) return 0;
  return receipts.filter((receipt) => described.has(parseCatalogKey(receipt.key).identity)).length;
}

/** Whether the core names a version (the `version` field, even null) in any of `receipts`. */
function namesVersions(receipts: readonly ReceiptEvent[]): boolean {
  return receipts.some((receipt) => receipt.version !== undefined);
}

/** The tool id prefix of every identity a described server presents. */
function describedIdentities(context: CheckContext): Map<string, string> {
  const prefixes = new Map<string, string>();
  for (const event of context.truth.operatorManifests)
    for (const identity of event.identities) prefixes.set(identity, event.toolIdPrefix);
  return prefixes;
}

function judgeReceipt(
  receipt: ReceiptEvent,
  prefix: string,
  definitions: Map<string, { receipt: ReceiptEvent; definition: string }>,
  findings: Findings,
): void {
  const { version } = receipt;
  if (version === undefined || version === null) {
    findings.add(
      'I35',
      receipt.seq,
      'RECEIPT_WITHOUT_VERSION',
      `receipt ${receipt.leaseId} (seq ${receipt.seq}) of a call of ${JSON.stringify(receipt.tool)} under ${receipt.key} names no version, though the operator described that server`,
    );
    return;
  }
  const expectedId = `${prefix}${receipt.tool}`;
  if (version.toolId !== expectedId) {
    findings.add(
      'I35',
      receipt.seq,
      'WRONG_TOOL_ID',
      `receipt ${receipt.leaseId} (seq ${receipt.seq}) names tool id ${JSON.stringify(version.toolId)} for ${JSON.stringify(receipt.tool)}; the operator's file gives ${JSON.stringify(expectedId)}`,
    );
    return;
  }
  const ref = `${version.toolId}@${version.version}`;
  const definition = `${String(receipt.descriptorDigest)}/${version.manifestDigest}`;
  const first = definitions.get(ref);
  if (first === undefined) definitions.set(ref, { receipt, definition });
  else if (first.definition !== definition)
    findings.add(
      'I35',
      receipt.seq,
      'ONE_VERSION_TWO_DEFINITIONS',
      `receipt ${receipt.leaseId} (seq ${receipt.seq}) names ${version.toolId} v${version.version} for descriptor ${short(receipt.descriptorDigest)} (manifest ${version.manifestDigest.slice(0, 12)}), but receipt ${first.receipt.leaseId} (seq ${first.receipt.seq}) named that version for descriptor ${short(first.receipt.descriptorDigest)} (manifest ${first.receipt.version?.manifestDigest.slice(0, 12)}): a changed definition under the same version`,
    );
}

const short = (digest: unknown): string => (typeof digest === 'string' ? digest.slice(0, 12) : JSON.stringify(digest));
