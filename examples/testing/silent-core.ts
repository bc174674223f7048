/**
 * A core that does the work but emits no observation at all: it connects, reads every page of
 * every catalog, shows the planner what it read, and sends every planned call with a valid lease
 * (so the world's servers execute them), yet never writes `published`, `gate_decision` or
 * `receipt`. The oracle trusts nothing it was not told and cannot check, so this core must fail
 * (test/untrusted-cores.test.ts): I4 DISCLOSED_UNKNOWN_GENERATION (a disclosure with no publish
 * behind it), I6 CALL_WITHOUT_RECEIPT (an executed call with no receipt), I3 (an unversioned
 * write with no decision to join a confirmation to), I12 (nothing published, no probe
 * decided), I13 (it follows a loop of cursors with no check, and the world ties its unlabelled
 * requests into walks by cursor) and I18 (it never reads a catalog again, and the world sees its
 * calls leave after a `list_changed` with no fresh `tools/list` answered).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LEASE_META,
  LeaseIssuer,
  catalogKey,
  defineCore,
  descriptorDigest,
  type CallRequest,
  type CoreAdapter,
  type CoreEnvironment,
  type DisclosedTool,
  type DisclosureResult,
  type SessionSpec,
} from 'catsim';
import { z } from 'zod';

/** Any tools/list result: tools are read verbatim (the SDK's own schema rejects a malformed tool). */
const ListResult = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

interface Known {
  client: Client;
  tools: DisclosedTool[];
}

class SilentCore implements CoreAdapter {
  readonly #known = new Map<string, Known>();
  readonly #epochs = new Map<string, number>();
  readonly #leases: LeaseIssuer;

  constructor(private readonly env: CoreEnvironment) {
    this.#leases = new LeaseIssuer({ key: env.leaseKey, ttlMs: 5_000, idPrefix: 'silent-', clock: env.clock });
  }

  attach(spec: SessionSpec): void {
    const audience = `${spec.tenant}.${spec.role}`;
    void this.env.policySource.poll(audience).then((update) => this.#epochs.set(audience, update.epoch));
    void spec.connector
      .connect()
      .then(async ({ client, identity }) => {
        const tools: DisclosedTool[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < this.env.bounds.pageCountMax; page += 1) {
          const result = await client.request(
            { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
            ListResult,
          );
          for (const tool of result.tools)
            tools.push({ name: String((tool as { name?: unknown }).name), descriptorDigest: descriptorDigest(tool) });
          cursor = result.nextCursor;
          if (cursor === undefined) break;
        }
        this.#known.set(catalogKey(identity(), spec.tenant, spec.role), { client, tools });
      })
      .catch(() => undefined);
  }

  disclose(_session: string, tenant: string, role: string, identity: string): DisclosureResult {
    const key = catalogKey(identity, tenant, role);
    const known = this.#known.get(key);
    return known === undefined
      ? { ok: false, code: 'INCOMPLETE_DISCOVERY' }
      : { ok: true, key, generation: 1, snapshotDigest: '0'.repeat(64), tools: known.tools };
  }

  async call(request: CallRequest): Promise<void> {
    const key = catalogKey(request.identity, request.tenant, request.role);
    const known = this.#known.get(key);
    if (known === undefined) return;
    const policyEpoch = this.#epochs.get(`${request.tenant}.${request.role}`) ?? 1;
    const lease = this.#leases.issue({
      key,
      principal: request.principal,
      session: request.session,
      tool: request.plan.toolName,
      resourceScope: `session:${request.session}`,
      generation: 1,
      descriptorDigest: request.plan.descriptorDigest,
      policyEpoch,
    });
    const params = { name: request.plan.toolName, arguments: request.arguments, _meta: { [LEASE_META]: lease } };
    await known.client.request({ method: 'tools/call', params }, z.looseObject({})).catch(() => undefined);
  }

  pushPolicy(update: { audience: string; epoch: number }): void {
    this.#epochs.set(update.audience, Math.max(update.epoch, this.#epochs.get(update.audience) ?? 0));
  }

  stop(): void {}
}

export default defineCore({ name: 'silent', create: (env) => new SilentCore(env) });
