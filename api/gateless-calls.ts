/**
 * The lease convention for a host without an admission gate (docs/CORE-API.md, "A host without a
 * gate: the lease convention"; docs/PEERS.md's table is measured under it): one piece of code, so
 * that the template cores, catsim's peers and every library peer are judged under the same rules.
 *
 * - A host without a gate admits every call it sends: when the `tools/call` request that carries
 *   a planned call leaves (WireWatch matches it by tool name and arguments), the adapter writes
 *   `gate_decision` ADMIT for it, puts a lease on that request (the testbed's ticket: the world's
 *   servers execute nothing without a valid, unused one; it is not a defence of the host) and
 *   writes the `receipt`; when the answer comes, `receipt_outcome`.
 * - A call the host does not send: `INCOMPLETE_DISCOVERY` when the host has no catalog for the key
 *   (no connection, nothing listed yet); otherwise the refusal its call path stands for, which the
 *   adapter names from what it threw (`NotSent`): by default `UNDISCLOSED_TOOL` when the name is
 *   not in its list (its call path refused it) and ADMIT, with no receipt, when it is (the host
 *   admitted it, but the request never left: its connection was gone); a library that validates
 *   arguments first says `ARGS_INVALID` for what its validation refused.
 * - The lease binds what the host holds: the generation the adapter published last for the key,
 *   the listed descriptor's digest (the plan's when the name is not listed) and the policy epoch
 *   the adapter last saw for the audience (polled every `env.policyPollMs`, and pushed).
 * So I3, I7, I8, I9 and I11 judge what the host sent, the same way for every such core, and I6
 * joins each executed call to its receipt.
 *
 * Workflow: `watchPolicy(tenant, role)` in `attach`; `notePolicy(update)` in `pushPolicy`;
 * `call(request, target, send)` in `call`, where `send` asks the host to make the call; `stop()`
 * in `stop`.
 */
import type { CallRequest, CoreEnvironment, CoreTask, PolicyUpdate } from '../contract/core-api.ts';
import type { GATE_REFUSALS } from '../contract/trace/codes.ts';
import { LeaseIssuer } from '../src/admission/lease.ts';
import { LEASE_META_KEY } from '../src/admission/codes.ts';
import type { WireWatch } from './wire-watch.ts';

/** A refusal code of the gate (docs/TRACE.md, Codes). */
export type GateRefusal = (typeof GATE_REFUSALS)[number];

/**
 * The decision on a call the host did not send, from what its call path threw (undefined when it
 * returned without sending): ADMIT (it admitted the call, but the request never left) or the
 * refusal code its call path stands for (`UNDISCLOSED_TOOL`, `ARGS_INVALID`, ...).
 */
export type NotSent = (error: unknown, listed: boolean) => 'ADMIT' | GateRefusal;

/** The default {@link NotSent}: a listed tool was admitted (its connection was gone), another refused. */
export const NOT_SENT_DEFAULT: NotSent = (_error, listed) => (listed ? 'ADMIT' : 'UNDISCLOSED_TOOL');

/** What the host holds for a call's key: its wire and the catalog the adapter published for it. */
export interface GatelessTarget {
  key: string;
  /** The watch on the key's connection; undefined when the host has none. */
  wire: WireWatch | undefined;
  /** The catalog the host uses (last `published`); undefined when it has listed nothing yet. */
  catalog: { generation: number; tools: readonly { name: string; descriptorDigest: string }[] } | undefined;
  /**
   * The name the server gave a tool the host shows under another name (a library that renames
   * tools for its model); default: the same name. The lease, the receipt and the wire use it.
   */
  servedName?: (shownName: string) => string;
}

/** The admission bookkeeping of one core without a gate (one per boot). */
export class GatelessCalls {
  /** Policy epoch per audience, as far as the adapter knows (for valid leases). */
  readonly #epochs = new Map<string, number>();
  readonly #polls: CoreTask[] = [];
  readonly #leases: LeaseIssuer;

  /**
   * @param options.leaseIdPrefix lease ids are `${leaseIdPrefix}${n}`: put the boot in it after a
   *   host restart (docs/CORE-API.md, "Ids are unique in a round, across boots").
   * @param options.leaseTtlMs how long a lease is valid, virtual ms (default 5,000).
   */
  constructor(
    private readonly env: CoreEnvironment,
    options: { leaseIdPrefix: string; leaseTtlMs?: number },
  ) {
    this.#leases = new LeaseIssuer({
      key: env.leaseKey,
      ttlMs: options.leaseTtlMs ?? 5_000,
      idPrefix: options.leaseIdPrefix,
      clock: env.clock,
    });
  }

  /** Polls the audience's policy now and every `policyPollMs` (pushes may be lost). */
  watchPolicy(tenant: string, role: string): void {
    const audience = `${tenant}.${role}`;
    const poll = (): void => {
      void this.env.policySource.poll(audience).then((update) => this.notePolicy(update));
      this.#polls.push(this.env.scheduler.after(this.env.policyPollMs, poll));
    };
    poll();
  }

  /** Notes an epoch learned by push or poll (a later epoch wins). */
  notePolicy(update: PolicyUpdate): void {
    if (update.epoch > (this.#epochs.get(update.audience) ?? 0)) this.#epochs.set(update.audience, update.epoch);
  }

  /** Cancels the policy polls (end of round). */
  stop(): void {
    for (const task of this.#polls) this.env.scheduler.cancel(task);
  }

  /**
   * Writes the host's decision on `request` and, when it sends it, its lease, receipt and outcome;
   * `send` asks the host to make the call (its rejection is the server's answer, not a failure);
   * `notSent` decides a call the host did not send (default {@link NOT_SENT_DEFAULT}). Resolves
   * when `send` has settled.
   */
  async call(
    request: CallRequest,
    target: GatelessTarget,
    send: () => Promise<unknown>,
    notSent: NotSent = NOT_SENT_DEFAULT,
  ): Promise<void> {
    const { key, wire, catalog } = target;
    if (wire === undefined || catalog === undefined) {
      this.#decide(request, key, 'INCOMPLETE_DISCOVERY', null, null);
      return;
    }
    const listed = catalog.tools.find((candidate) => candidate.name === request.plan.toolName);
    const tool = target.servedName?.(request.plan.toolName) ?? request.plan.toolName;
    const policyEpoch = this.#epochs.get(`${request.tenant}.${request.role}`) ?? 1;
    const descriptorDigest = listed?.descriptorDigest ?? request.plan.descriptorDigest;
    const generation = catalog.generation;
    const lease = this.#leases.issue({
      key,
      principal: request.principal,
      session: request.session,
      tool,
      resourceScope: `session:${request.session}`,
      generation,
      descriptorDigest,
      policyEpoch,
    });
    let sent = false;
    const stamp = {
      meta: { [LEASE_META_KEY]: lease },
      onSent: () => {
        sent = true;
        this.#decide(request, key, 'ADMIT', generation, listed?.descriptorDigest ?? null, policyEpoch);
        this.env.sink.emit({
          type: 'receipt',
          callId: request.callId,
          leaseId: lease.leaseId,
          key,
          tool,
          generation,
          descriptorDigest,
          policyEpoch,
          disclosure: { generation: request.plan.generation, snapshotDigest: request.plan.snapshotDigest },
          pin: null,
        });
      },
      onAnswer: (outcome: 'ok' | 'error') =>
        this.env.sink.emit({ type: 'receipt_outcome', leaseId: lease.leaseId, outcome }),
    };
    wire.stampCall({ name: tool, arguments: request.arguments }, stamp);
    let thrown: unknown;
    await send().catch((error: unknown) => {
      thrown = error;
    });
    wire.cancelStamp(stamp);
    if (sent) return;
    const decision = notSent(thrown, listed !== undefined);
    this.#decide(request, key, decision, generation, listed?.descriptorDigest ?? null, policyEpoch);
  }

  #decide(
    request: CallRequest,
    key: string,
    decision: 'ADMIT' | GateRefusal,
    generation: number | null,
    descriptorDigest: string | null,
    policyEpoch = this.#epochs.get(`${request.tenant}.${request.role}`) ?? 1,
  ): void {
    this.env.sink.emit({
      type: 'gate_decision',
      callId: request.callId,
      planId: request.planId,
      session: request.session,
      key,
      tool: request.plan.toolName,
      planDescriptorDigest: request.plan.descriptorDigest,
      generation,
      descriptorDigest,
      policyEpoch,
      decision,
    });
  }
}
