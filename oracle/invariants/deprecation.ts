/**
 * I34, no new binding of a deprecated version (SPEC section 9; seed 004: "构建新 Bundle 时禁止绑定
 * deprecated 版本，旧 Bundle 在兼容期继续"). Once the world delivered an operator's deprecation, at
 * stage `no-new-binding`, of the versions of tool `tool` that server `server` listed then
 * (`deprecation_ordered`, delivery `delivered`, F31: their descriptor digests), no call of one of
 * those versions may be admitted through a binding made afterwards: no `receipt` after the order,
 * under a catalog key of the identity the order named, for that tool and one of those digests,
 * whose generation (the receipt's `disclosure`) the world first disclosed to any session after
 * the order. Bindings made before (a generation first disclosed before the order) go on, as old
 * bundles do in their compatibility window.
 *
 * Ground truth: the order and every generation's first disclosure are the world's events; the
 * receipts are the core's, and what each binds is held to the world elsewhere (I6, I8, I9). A
 * core that writes no receipt sends nothing I34 could judge. An order written `unsupported` or
 * `host_down` is not judged. One work count per delivered order that names a version.
 *
 * Code: `NEW_BINDING_OF_DEPRECATED`, anchored at each such receipt.
 */
import { parseCatalogKey } from '../catalog-key.ts';
import type { DisclosureEvent } from '../trace.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** I34: nothing deprecated is bound again after its order. */
export function checkDeprecation(context: CheckContext, findings: Findings): void {
  const firstDisclosures = firstDisclosureOf(context.truth.disclosures);
  for (const order of context.truth.deprecations) {
    if (order.delivery !== 'delivered' || order.descriptorDigests.length === 0) continue;
    findings.count('I34');
    for (const receipt of context.observed.receipts) {
      if (receipt.seq < order.seq || receipt.tool !== order.tool || receipt.disclosure === null) continue;
      if (parseCatalogKey(receipt.key).identity !== order.identity) continue;
      const digest = receipt.descriptorDigest;
      if (typeof digest !== 'string' || !order.descriptorDigests.includes(digest)) continue;
      const first = firstDisclosures.get(`${receipt.key}#${receipt.disclosure.generation}`);
      if (first !== undefined && first.seq < order.seq) continue;
      findings.add(
        'I34',
        receipt.seq,
        'NEW_BINDING_OF_DEPRECATED',
        `receipt ${receipt.leaseId} (seq ${receipt.seq}) admitted ${JSON.stringify(order.tool)} ${digest.slice(0, 12)} through generation ${receipt.disclosure.generation} of ${receipt.key}, ${first === undefined ? 'which the world never disclosed' : `first disclosed at seq ${first.seq}`}, after the operator deprecated that version (seq ${order.seq}, t=${order.t} ms, no-new-binding)`,
      );
    }
  }
}

/** The first world `disclosure` of each (catalog key, generation), by `<key>#<generation>`. */
function firstDisclosureOf(disclosures: readonly DisclosureEvent[]): Map<string, DisclosureEvent> {
  const first = new Map<string, DisclosureEvent>();
  for (const disclosure of disclosures) {
    const ref = `${disclosure.key}#${disclosure.generation}`;
    if (!first.has(ref)) first.set(ref, disclosure);
  }
  return first;
}
