/**
 * The remaining mutant pieces (SPEC section 12): content checks that accept any dialect, a host
 * whose receipts omit the policy epoch, and a connection that never notices identity rotation.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallRequest, GateDecision } from '../../src/admission/gate.ts';
import type { SignedLease } from '../../src/admission/lease.ts';
import type { ConnectedPageSource } from '../../src/discovery/connected-source.ts';
import type { PageFailure, PageReply, PageSource } from '../../src/discovery/page-source.ts';
import { CatalogHost } from '../../src/host.ts';
import { checkTools, type ContentChecks } from '../../src/validation/content-checks.ts';

/** Any dialect accepted: an UNKNOWN_DIALECT verdict becomes `ok`. */
export const anyDialectChecks: ContentChecks = (tools, digests, trust, memos) =>
  checkTools(tools, digests, trust, memos).map((verdict) => (verdict === 'UNKNOWN_DIALECT' ? 'ok' : verdict));

/** Receipts without policy epoch: the receipt binds generation and descriptor, not the epoch. */
export class NoEpochReceiptHost extends CatalogHost {
  protected override emitReceipt(request: CallRequest, decision: GateDecision, lease: SignedLease): void {
    super.emitReceipt(request, { ...decision, policyEpoch: null as unknown as number }, lease);
  }
}

/**
 * Ignoring identity rotation: the connection keeps reporting the identity it first presented,
 * so the core keeps publishing under the old key after a certificate rotation.
 */
export class StickyIdentitySource implements PageSource {
  #first: string | undefined;

  constructor(private readonly inner: ConnectedPageSource) {}

  identity(): string {
    const now = this.inner.identity();
    if (this.#first === undefined && now !== '') this.#first = now;
    return this.#first ?? now;
  }

  changeCount(): number {
    return this.inner.changeCount();
  }

  listPage(cursor: string | undefined, scanId: string, timeoutMs: number): Promise<PageReply | PageFailure> {
    return this.inner.listPage(cursor, scanId, timeoutMs);
  }

  currentClient(): Client | undefined {
    return this.inner.currentClient();
  }

  open(): Promise<boolean> {
    return this.inner.open();
  }
}
