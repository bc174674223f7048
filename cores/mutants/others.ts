/**
 * The remaining mutant pieces (SPEC section 12): content checks that accept any dialect, a host
 * whose receipts omit the policy epoch, a connection that never notices identity rotation, and a
 * host that sends the names its gate refused as undisclosed (issue 27).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallRequest, GateDecision } from '../../src/admission/gate.ts';
import type { SignedLease } from '../../src/admission/lease.ts';
import type { ConnectedPageSource } from '../../src/discovery/connected-source.ts';
import type { PageFailure, PageReply, PageSource } from '../../src/discovery/page-source.ts';
import type { EndpointInfo } from '../../src/discovery/refresher.ts';
import type { CatalogRefresher } from '../../src/discovery/refresher.ts';
import { CatalogHost, type CallResult, type ReceiptVersion } from '../../src/host.ts';
import { audienceName, type AudienceClass } from '../../src/keys.ts';
import { checkTools, type ContentChecks } from '../../src/validation/content-checks.ts';

/** Any dialect accepted: an UNKNOWN_DIALECT verdict becomes `ok`. */
export const anyDialectChecks: ContentChecks = (tools, digests, trust, memos) =>
  checkTools(tools, digests, trust, memos).map((verdict) => (verdict === 'UNKNOWN_DIALECT' ? 'ok' : verdict));

/** Receipts without policy epoch: the receipt binds generation and descriptor, not the epoch. */
export class NoEpochReceiptHost extends CatalogHost {
  protected override emitReceipt(
    request: CallRequest,
    decision: GateDecision,
    lease: SignedLease,
    version?: ReceiptVersion | null,
  ): void {
    super.emitReceipt(request, { ...decision, policyEpoch: null as unknown as number }, lease, version);
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

/** A page source that carries calls too (the connected source, or a wrapper of it). */
interface CallingSource extends PageSource {
  currentClient(): Client | undefined;
}

/**
 * Calls a refused name (issue 27; seed 002's incident): when the gate refuses a call as
 * UNDISCLOSED_TOOL, the host sends it to the server all the same, with no lease, the way a client
 * library with no gate does. Its trace shows only the refusal decision, no receipt and no
 * executed call; the server refuses the call for want of a lease (or as an unknown tool), and
 * the world's `call_refused_by_server` is what I9 reads.
 */
export class SendRefusedNameHost extends CatalogHost {
  readonly #sources: { audience: string; source: CallingSource }[] = [];

  override attach(source: PageSource, audience: AudienceClass, endpoint: EndpointInfo): CatalogRefresher {
    if ('currentClient' in source)
      this.#sources.push({ audience: audienceName(audience), source: source as CallingSource });
    return super.attach(source, audience, endpoint);
  }

  override async call(request: CallRequest): Promise<CallResult> {
    const result = await super.call(request);
    if (result.admitted || result.code !== 'UNDISCLOSED_TOOL') return result;
    const audience = audienceName(request.audience);
    const channel = this.#sources.findLast(
      (entry) => entry.audience === audience && entry.source.identity() === request.identity,
    );
    const client = channel?.source.currentClient();
    if (client !== undefined)
      await client
        .callTool({ name: request.plan.toolName, arguments: request.arguments }, undefined, { timeout: 30_000 })
        .catch(() => undefined);
    return result;
  }
}
