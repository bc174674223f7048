/**
 * Hand-built traces for the oracle's tests. Digests are sha256 of short labels, computed here with
 * node:crypto: the oracle must not borrow the simulator's digest code, and a trace only carries
 * digests as strings anyway.
 *
 * Workflow: `new TraceBuilder()`, then event methods in trace order (each stamps `seq` and the
 * builder's clock, then advances the clock by `stepMs`), or `walk()` for a whole scan; finally
 * `build()` for a `Trace` or `jsonl()` for its text form. Generations are counted per catalog key,
 * as a correct registry does; `rollback()` and `disclosure()` copy what they need from an earlier
 * publish of the builder. For admission at call time, `call()` writes one whole call as a correct
 * planner, gate and server log it (plan, confirmation, decision, receipt, execution, outcome);
 * the single-event methods (`planMade`, `gateDecision`, `receipt`, ...) build the faulty ones.
 */
import { createHash } from 'node:crypto';
import type {
  PublishStatus,
  PublishedTool,
  PublishedEvent,
  PublishedPage,
  RoundStatus,
  Trace,
  TraceBounds,
  TraceEvent,
  TraceHeader,
} from '../trace.ts';

/** A fixed 64-hex digest for a label (sha256 of the label). */
export function digestOf(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}

/**
 * The descriptor digest of the fixture tool `label`. A label is a tool name, optionally followed by
 * `#variant` for another descriptor under the same name (`dup` and `dup#2` are both named `dup`).
 */
export function toolDigest(label: string): string {
  return digestOf(`tool:${label}`);
}

/** The tool name of a fixture label: the label up to its first `#`. */
export function toolNameOf(label: string): string {
  const hash = label.indexOf('#');
  return hash < 0 ? label : label.slice(0, hash);
}

/** The identity `s0` presents at boot 0 (64-hex, like a real key fingerprint). */
export const ID0 = digestOf('identity:s0:boot0');
/** The identity `s0` presents after a rotation. */
export const ID1 = digestOf('identity:s0:rotated');
/** The identity of a second server `s1`. */
export const ID_S1 = digestOf('identity:s1');

/** The header bounds of docs/TRACE.md's example, plus the revocation bound B of SPEC section 7. */
export const DEFAULT_BOUNDS: TraceBounds = {
  pageCountMax: 64,
  byteCountMax: 1_048_576,
  scanTimeoutMs: 5_000,
  latencyMsMax: 40,
  tHealMs: 4_000,
  tEndMs: 16_000,
  generationTtlMs: 30_000,
  retryBackoffMsMax: 2_000,
  revocationBoundMs: 1_500,
};

/** One call as a correct planner, gate and server log it (see `TraceBuilder.call`). */
export interface CallSpec {
  readonly session: string;
  readonly planId: string;
  /** The caller's catalog key (and the plan's). */
  readonly key: string;
  /** Fixture tool label (its name and descriptor digest). */
  readonly tool: string;
  /** The generation the plan was made from (default: the key's latest). */
  readonly generation?: number;
  /** `plan_made.kind` (default `normal`). */
  readonly kind?: string;
  /** `plan_made.expectAdmit` (default: true for a probe, null otherwise). */
  readonly expectAdmit?: boolean | null;
  /** Log a `confirmation` right after the plan. */
  readonly confirm?: boolean;
  /** The gate's decision (default ADMIT); anything else stops after the decision. */
  readonly decision?: string;
  /** The core's policy epoch for the audience (default 1). */
  readonly policyEpoch?: number;
  /** The executing server (default `s0`). */
  readonly server?: string;
  /** false: the call is admitted and sent but the server never logs executing it. */
  readonly execute?: boolean;
}

/** The seqs `TraceBuilder.call` wrote; null for what it did not write. */
export interface CallSeqs {
  readonly plan: number;
  readonly confirmation: number | null;
  readonly decision: number;
  readonly receipt: number | null;
  readonly executed: number | null;
  readonly outcome: number | null;
  /** The lease the call carried (null when refused). */
  readonly leaseId: string | null;
}

/** One served page of a walk: its tools (fixture names), true and reported revision. */
export interface PageSpec {
  readonly tools: readonly string[];
  readonly revision?: number;
  readonly reported?: number | null;
}

/** How to publish at the end of a walk; every field defaults to what a correct core would do. */
export interface PublishSpec {
  readonly status?: PublishStatus;
  readonly sourceRevision?: number | null;
  readonly key?: string;
  /** Replaces the published pages (default: the walked pages, in order). */
  readonly pages?: (walked: readonly PublishedPage[]) => readonly PublishedPage[];
  /** Replaces the published tool names (default: all walked tools, in order). */
  readonly tools?: readonly string[];
  readonly generation?: number;
  /** Verdicts by tool label (default `"ok"` for every tool). */
  readonly verdicts?: Readonly<Record<string, string>>;
}

/** One scan from `scan_started` to an optional publish, as a correct core performs it. */
export interface WalkSpec {
  readonly server?: string;
  readonly identity?: string;
  readonly audience: string;
  readonly scanId: string;
  /** True revision of every page unless a page says otherwise. */
  readonly revision: number;
  /** Revision carried by every page (default: `revision`; null for an unversioned server). */
  readonly reported?: number | null;
  readonly pages: ReadonlyArray<PageSpec | readonly string[]>;
  /** The final recheck: false to skip it, or overrides of its true and reported revision. */
  readonly recheck?: false | { readonly revision?: number; readonly reported?: number | null };
  /** false for a scan that never publishes. */
  readonly publish?: false | PublishSpec;
  /** false for a scan that never logs `scan_ended`. */
  readonly end?: false | { readonly state: string; readonly reason: string };
}

/** What a walk emitted: the served page shapes and the publish's seq (or null). */
export interface WalkResult {
  readonly pages: readonly PublishedPage[];
  readonly publishSeq: number | null;
}

/** Cursor names of a walk: page i (from 0) starts at `c<i>` and the last page ends with null. */
function cursorsOf(index: number, count: number): { cursorIn: string | null; cursorOut: string | null } {
  return {
    cursorIn: index === 0 ? null : `c${index}`,
    cursorOut: index === count - 1 ? null : `c${index + 1}`,
  };
}

/** Builds one trace event by event. */
export class TraceBuilder {
  private readonly events: TraceEvent[] = [];
  private readonly stepMs: number;
  private clockMs = 0;
  /** The last generation published per catalog key. */
  private readonly generations = new Map<string, number>();
  /** The latest publish per (key, generation), so that `publishOf` stays constant-time. */
  private readonly publishes = new Map<string, PublishedEvent>();
  readonly header: TraceHeader;

  /**
   * `bounds` overrides the default bounds; `withoutRevocationBound` writes a header without
   * `revocationBoundMs`, as traces older than admission at call time have.
   */
  constructor(
    options: { round?: number; bounds?: Partial<TraceBounds>; stepMs?: number; withoutRevocationBound?: boolean } = {},
  ) {
    this.stepMs = options.stepMs ?? 10;
    const { revocationBoundMs, ...older } = { ...DEFAULT_BOUNDS, ...options.bounds };
    this.header = {
      type: 'header',
      schema: 'catsim.trace.v1',
      seed: '1',
      round: options.round ?? 17,
      scenario: 'default',
      core: 'reference',
      bounds: options.withoutRevocationBound === true ? older : { ...older, revocationBoundMs },
      faults: ['F1', 'F3'],
    };
  }

  /** Moves the clock to `tMs` (never backwards). */
  at(tMs: number): this {
    if (tMs < this.clockMs) throw new Error(`clock would go back from ${this.clockMs} to ${tMs}`);
    this.clockMs = tMs;
    return this;
  }

  /** The clock the next event will carry. */
  now(): number {
    return this.clockMs;
  }

  /** Appends an event with the documented leading fields; returns its seq. */
  emit(src: string, type: string, fields: Record<string, unknown> = {}): number {
    const seq = this.events.length;
    this.events.push({ seq, t: this.clockMs, src, type, ...fields } as TraceEvent);
    this.clockMs += this.stepMs;
    return seq;
  }

  /** `server_up`; versioned and trait-free unless told otherwise. */
  serverUp(
    server: string,
    identity: string,
    options: { boot?: number; versioned?: boolean; traits?: string[] } = {},
  ): number {
    const { boot = 0, versioned = true, traits = [] } = options;
    return this.emit('world', 'server_up', { server, identity, boot, versioned, traits });
  }

  /** A true revision; views map each audience to fixture tool labels in list order. */
  revision(server: string, revision: number, views: Record<string, readonly string[]>): number {
    const full = Object.fromEntries(
      Object.entries(views).map(([audience, labels]) => [
        audience,
        labels.map((label) => ({ name: toolNameOf(label), digest: toolDigest(label) })),
      ]),
    );
    return this.emit('world', 'revision', { server, revision, views: full });
  }

  /**
   * `session_opened`: a client of the core connected to `server` as `audience` presenting
   * `identity`. Liveness (I12) is owed exactly to the (server, audience) pairs logged here.
   */
  sessionOpened(server: string, audience: string, identity: string): number {
    return this.emit('world', 'session_opened', { server, audience, identity });
  }

  /** A served page; returns its shape as a core would publish it. */
  served(page: {
    server?: string;
    audience: string;
    scanId: string | null;
    cursorIn: string | null;
    cursorOut: string | null;
    revision: number;
    reported?: number | null;
    tools: readonly string[];
  }): PublishedPage & { seq: number } {
    const reported = page.reported === undefined ? page.revision : page.reported;
    const tools = page.tools.map(toolDigest);
    const pageDigest = digestOf(JSON.stringify([page.cursorIn, page.cursorOut, reported, tools]));
    const seq = this.emit('world', 'page_served', {
      server: page.server ?? 's0',
      audience: page.audience,
      scanId: page.scanId,
      cursorIn: page.cursorIn,
      cursorOut: page.cursorOut,
      revision: page.revision,
      reported,
      tools,
      pageDigest,
    });
    return { cursorIn: page.cursorIn, cursorOut: page.cursorOut, pageDigest, seq };
  }

  /** `page_refused`, by default with -32602 (invalid cursor). */
  refused(page: {
    server?: string;
    audience: string;
    scanId: string | null;
    cursorIn: string | null;
    code?: number;
  }): number {
    return this.emit('world', 'page_refused', {
      server: page.server ?? 's0',
      audience: page.audience,
      scanId: page.scanId,
      cursorIn: page.cursorIn,
      code: page.code ?? -32602,
    });
  }

  /** `scan_started` expecting the last generation this builder published for `key` (0 if none). */
  scanStarted(key: string, scanId: string): number {
    return this.emit('core', 'scan_started', {
      key,
      scanId,
      expectedGeneration: this.generations.get(key) ?? 0,
      policyEpoch: 1,
    });
  }

  /** `page_read` of a served page. */
  pageRead(scanId: string, page: PublishedPage, revision: number | null, toolCount: number, recheck: boolean): number {
    return this.emit('core', 'page_read', {
      scanId,
      cursorIn: page.cursorIn,
      cursorOut: page.cursorOut,
      revision,
      pageDigest: page.pageDigest,
      toolCount,
      recheck,
    });
  }

  /** `scan_ended`, by default SNAPSHOT_PROVEN. */
  scanEnded(scanId: string, state = 'SNAPSHOT_PROVEN', reason = 'OK'): number {
    return this.emit('core', 'scan_ended', { scanId, state, reason });
  }

  /**
   * `published` at the key's next generation (unless told); tools are fixture labels with verdict
   * `"ok"` unless `verdicts` (by label) says otherwise; `expiresAt` is now + `generationTtlMs`; not
   * a rollback.
   */
  published(publish: {
    key: string;
    scanId: string;
    status?: PublishStatus;
    sourceRevision: number | null;
    pages: readonly PublishedPage[];
    tools: readonly string[];
    generation?: number;
    verdicts?: Readonly<Record<string, string>>;
  }): number {
    const pages = publish.pages.map(({ cursorIn, cursorOut, pageDigest }) => ({ cursorIn, cursorOut, pageDigest }));
    const tools = publish.tools.map((label) => ({
      name: toolNameOf(label),
      descriptorDigest: toolDigest(label),
      verdict: (publish.verdicts?.[label] ?? 'ok') as PublishedTool['verdict'],
    }));
    return this.emitPublished({
      key: publish.key,
      scanId: publish.scanId,
      generation: publish.generation ?? this.nextGeneration(publish.key),
      status: publish.status ?? 'ELIGIBLE',
      sourceRevision: publish.sourceRevision,
      snapshotDigest: digestOf(`snapshot:${publish.scanId}`),
      pageRoot: digestOf(`root:${publish.scanId}`),
      pages,
      tools,
      expiresAt: this.clockMs + this.header.bounds.generationTtlMs,
      rolledBackFrom: null,
    });
  }

  /**
   * A rollback of `key` to generation `from`, as the reference registry performs it: the latest
   * earlier publish of that generation is republished unchanged (scanId, revision, snapshot,
   * pages, tools and `expiresAt`) at the key's next generation, with `rolledBackFrom` = `from`.
   * `change` alters the copy, to build a faulty rollback.
   */
  rollback(
    key: string,
    from: number,
    change: Partial<Omit<PublishedEvent, 'seq' | 't' | 'src' | 'type'>> = {},
  ): number {
    const source = this.publishOf(key, from);
    const { seq: _seq, t: _t, src: _src, type: _type, ...content } = source;
    return this.emitPublished({ ...content, generation: this.nextGeneration(key), rolledBackFrom: from, ...change });
  }

  /** The latest `published` of generation `generation` of `key` so far. */
  publishOf(key: string, generation: number): PublishedEvent {
    const found = this.publishes.get(JSON.stringify([key, generation]));
    if (found === undefined) throw new Error(`no publish of generation ${generation} of ${key}`);
    return found;
  }

  /** The published event at `seq`. */
  publishAt(seq: number): PublishedEvent {
    const event = this.events[seq];
    if (event?.type !== 'published') throw new Error(`seq ${seq} is not a publish`);
    return event as PublishedEvent;
  }

  private nextGeneration(key: string): number {
    return (this.generations.get(key) ?? 0) + 1;
  }

  /** Emits a `published` in the documented field order and records its generation for its key. */
  private emitPublished(fields: Omit<PublishedEvent, 'seq' | 't' | 'src' | 'type'>): number {
    this.generations.set(fields.key, fields.generation);
    const {
      key,
      scanId,
      generation,
      status,
      sourceRevision,
      snapshotDigest,
      pageRoot,
      pages,
      tools,
      expiresAt,
      rolledBackFrom,
    } = fields;
    const seq = this.emit('core', 'published', {
      key,
      scanId,
      generation,
      status,
      sourceRevision,
      snapshotDigest,
      pageRoot,
      pages,
      tools,
      expiresAt,
      rolledBackFrom: rolledBackFrom ?? null,
    });
    this.publishes.set(JSON.stringify([key, generation]), this.publishAt(seq));
    return seq;
  }

  /** `server_disabled`: no earlier generation of `key` qualified for a rollback. */
  serverDisabled(key: string, reason = 'NO_ROLLBACK_SOURCE'): number {
    return this.emit('core', 'server_disabled', { key, reason });
  }

  /** `defect_planted` for the fixture tool `label` (its descriptor digest). */
  defectPlanted(server: string, label: string, defect: string): number {
    return this.emit('world', 'defect_planted', { server, digest: toolDigest(label), defect });
  }

  /** `identity_rotated`; a correct world also writes a `server_up` with the same boot. */
  identityRotated(server: string, identity: string, boot: number): number {
    return this.emit('world', 'identity_rotated', { server, identity, boot });
  }

  /** `disconnected`: the world cut the core's session with `server` as `audience`. */
  disconnected(server: string, audience: string): number {
    return this.emit('world', 'disconnected', { server, audience });
  }

  /**
   * `disclosure` of the publish at `publishSeq`: by default server `s0`, the key's audience, a
   * session named after it, and exactly the publish's key, generation, snapshot and tool digests.
   */
  disclosure(
    publishSeq: number,
    overrides: {
      session?: string;
      server?: string;
      audience?: string;
      key?: string;
      generation?: number;
      snapshotDigest?: string;
      tools?: readonly string[];
    } = {},
  ): number {
    const publish = this.publishAt(publishSeq);
    const audience = overrides.audience ?? publish.key.slice(publish.key.lastIndexOf('|') + 1);
    return this.emit('world', 'disclosure', {
      session: overrides.session ?? `planner-${audience}`,
      server: overrides.server ?? 's0',
      audience,
      key: overrides.key ?? publish.key,
      generation: overrides.generation ?? publish.generation,
      snapshotDigest: overrides.snapshotDigest ?? publish.snapshotDigest,
      tools: overrides.tools ?? publish.tools.map((tool) => tool.descriptorDigest),
    });
  }

  /** `disclosure_refused`: the planner asked and was shown nothing. */
  disclosureRefused(server: string, audience: string, code: string, session = `planner-${audience}`): number {
    return this.emit('world', 'disclosure_refused', { session, server, audience, code });
  }

  /** `effect_policy`: trusted effect classes by tool name (unlisted tools are WRITE). */
  effectPolicy(classes: Readonly<Record<string, string>>): number {
    return this.emit('world', 'effect_policy', { classes: { ...classes } });
  }

  /**
   * `policy_changed` for `audience` to `epoch` holding `grants` (sorted here); `revoked` and
   * `granted` default to nothing and, for epoch 1, to all of `grants`.
   */
  policyChanged(
    audience: string,
    epoch: number,
    grants: readonly string[],
    change: { revoked?: readonly string[]; granted?: readonly string[] } = {},
  ): number {
    const sorted = [...grants].sort();
    return this.emit('world', 'policy_changed', {
      audience,
      epoch,
      grants: sorted,
      revoked: [...(change.revoked ?? [])],
      granted: [...(change.granted ?? (epoch === 1 ? sorted : []))],
    });
  }

  /** `policy_push` of an epoch, delivered unless told. */
  policyPush(audience: string, epoch: number, delivered = true): number {
    return this.emit('world', 'policy_push', { audience, epoch, delivered });
  }

  /** `policy_seen`: the core learned `epoch` for `audience`, by poll unless told. */
  policySeen(audience: string, epoch: number, via = 'poll'): number {
    return this.emit('core', 'policy_seen', { audience, epoch, via });
  }

  /**
   * `plan_made` for fixture tool `tool`, bound to generation `generation` of `key` (default its
   * latest) and that publish's snapshot digest.
   */
  planMade(plan: {
    session: string;
    planId: string;
    key: string;
    tool: string;
    generation?: number;
    kind?: string;
    expectAdmit?: boolean | null;
  }): number {
    const generation = plan.generation ?? this.generations.get(plan.key) ?? 0;
    const snapshotDigest =
      generation === 0 ? digestOf('snapshot:none') : this.publishOf(plan.key, generation).snapshotDigest;
    const kind = plan.kind ?? 'normal';
    return this.emit('world', 'plan_made', {
      session: plan.session,
      planId: plan.planId,
      key: plan.key,
      generation,
      snapshotDigest,
      tool: toolNameOf(plan.tool),
      descriptorDigest: toolDigest(plan.tool),
      kind,
      expectAdmit: plan.expectAdmit !== undefined ? plan.expectAdmit : kind === 'probe' ? true : null,
    });
  }

  /** `confirmation` of a plan by a human. */
  confirmation(session: string, planId: string): number {
    return this.emit('world', 'confirmation', { session, planId, token: `confirm:${session}#${planId}` });
  }

  /**
   * `gate_decision` for plan `planId` of `session` naming fixture tool `tool` (its name and plan
   * digest). By default an ADMIT that reports the key's latest generation and `tool`'s digest, at
   * policy epoch 1, with callId `<session>#<planId>`.
   */
  gateDecision(decision: {
    session: string;
    planId: string;
    key: string;
    tool: string;
    decision?: string;
    generation?: number | null;
    descriptorDigest?: string | null;
    policyEpoch?: number;
    callId?: string;
  }): number {
    return this.emit('core', 'gate_decision', {
      callId: decision.callId ?? `${decision.session}#${decision.planId}`,
      planId: decision.planId,
      session: decision.session,
      key: decision.key,
      tool: toolNameOf(decision.tool),
      planDescriptorDigest: toolDigest(decision.tool),
      generation:
        decision.generation !== undefined ? decision.generation : (this.generations.get(decision.key) ?? null),
      descriptorDigest: decision.descriptorDigest !== undefined ? decision.descriptorDigest : toolDigest(decision.tool),
      policyEpoch: decision.policyEpoch ?? 1,
      decision: decision.decision ?? 'ADMIT',
    });
  }

  /**
   * `receipt` of call `callId` with lease `leaseId` for fixture tool `tool`, binding the key's
   * latest generation, the tool's digest and policy epoch 1 unless `binding` says otherwise (a
   * binding field set to undefined is left out). Its disclosure and pin are that generation's.
   */
  receipt(receipt: {
    callId: string;
    leaseId: string;
    key: string;
    tool: string;
    binding?: { generation?: unknown; descriptorDigest?: unknown; policyEpoch?: unknown };
  }): number {
    const generation = this.generations.get(receipt.key) ?? 0;
    const publish = generation === 0 ? null : this.publishOf(receipt.key, generation);
    const binding = { generation, descriptorDigest: toolDigest(receipt.tool), policyEpoch: 1, ...receipt.binding };
    return this.emit('core', 'receipt', {
      callId: receipt.callId,
      leaseId: receipt.leaseId,
      key: receipt.key,
      tool: toolNameOf(receipt.tool),
      ...binding,
      disclosure: { generation, snapshotDigest: publish?.snapshotDigest ?? digestOf('snapshot:none') },
      pin: publish?.sourceRevision ?? null,
    });
  }

  /** `notification_delivered`: a `list_changed` from `server` reached the core's client as `audience`. */
  notificationDelivered(server: string, audience: string): number {
    return this.emit('world', 'notification_delivered', { server, audience });
  }

  /** `call_sent`: the core's client put a `tools/call` of fixture tool `tool` on the wire to `server` for `audience`. */
  callSent(call: { server?: string; audience: string; tool: string }): number {
    return this.emit('world', 'call_sent', {
      server: call.server ?? 's0',
      audience: call.audience,
      tool: toolNameOf(call.tool),
    });
  }

  /** `call_executed` of fixture tool `tool` by `server` for `audience` (digest: the tool's, unless told). */
  callExecuted(call: {
    server?: string;
    audience: string;
    tool: string;
    leaseId: string | null;
    descriptorDigest?: string | null;
    pin?: number | null;
    revision?: number;
    /** F37: `backup` when the server's backup endpoint executed it; absent, the server itself. */
    endpoint?: 'backup';
  }): number {
    return this.emit('world', 'call_executed', {
      server: call.server ?? 's0',
      audience: call.audience,
      tool: toolNameOf(call.tool),
      descriptorDigest: call.descriptorDigest !== undefined ? call.descriptorDigest : toolDigest(call.tool),
      leaseId: call.leaseId,
      pin: call.pin ?? null,
      revision: call.revision ?? 3,
      ...(call.endpoint === undefined ? {} : { endpoint: call.endpoint }),
    });
  }

  /** `call_refused_by_server` of fixture tool `tool`. */
  callRefusedByServer(call: {
    server?: string;
    audience: string;
    tool: string;
    leaseId: string | null;
    code: string;
  }): number {
    return this.emit('world', 'call_refused_by_server', {
      server: call.server ?? 's0',
      audience: call.audience,
      tool: toolNameOf(call.tool),
      leaseId: call.leaseId,
      code: call.code,
    });
  }

  /** `receipt_outcome` of a lease, `ok` unless told. */
  receiptOutcome(leaseId: string, outcome = 'ok'): number {
    return this.emit('core', 'receipt_outcome', { leaseId, outcome });
  }

  /**
   * One whole call as a correct planner, gate and server log it: `plan_made`, a `confirmation`
   * if asked, the `gate_decision`; on ADMIT the `receipt` (lease `lease-<planId>`), the server's
   * `call_executed` (pin: the active generation's revision) and the `receipt_outcome`.
   */
  call(spec: CallSpec): CallSeqs {
    const audience = spec.key.slice(spec.key.lastIndexOf('|') + 1);
    const plan = this.planMade(spec);
    const confirmation = spec.confirm === true ? this.confirmation(spec.session, spec.planId) : null;
    const callId = `${spec.session}#${spec.planId}`;
    const { session, planId, key, tool, policyEpoch } = spec;
    const decision = this.gateDecision({ session, planId, key, tool, callId, policyEpoch, decision: spec.decision });
    if ((spec.decision ?? 'ADMIT') !== 'ADMIT')
      return { plan, confirmation, decision, receipt: null, executed: null, outcome: null, leaseId: null };
    const leaseId = `lease-${spec.planId}`;
    const receipt = this.receipt({
      callId,
      leaseId,
      key: spec.key,
      tool: spec.tool,
      binding: { policyEpoch: spec.policyEpoch ?? 1 },
    });
    if (spec.execute === false)
      return { plan, confirmation, decision, receipt, executed: null, outcome: null, leaseId };
    const generation = this.generations.get(spec.key) ?? 0;
    const pin = generation === 0 ? null : this.publishOf(spec.key, generation).sourceRevision;
    const executed = this.callExecuted({
      server: spec.server,
      audience,
      tool: spec.tool,
      leaseId,
      pin,
      revision: pin ?? 3,
    });
    return { plan, confirmation, decision, receipt, executed, outcome: this.receiptOutcome(leaseId), leaseId };
  }

  /** `quiet`: the start of the quiet tail. */
  quiet(): number {
    return this.emit('world', 'quiet');
  }

  /** `round_end`, by default settled after the quiet tail. */
  roundEnd(status: RoundStatus = 'settled', reason = status === 'settled' ? 'quiet' : 'event_budget'): number {
    return this.emit('world', 'round_end', { status, reason });
  }

  /** A whole scan: start, pages (each served then read), recheck, end, publish. */
  walk(spec: WalkSpec): WalkResult {
    const key = `${spec.identity ?? ID0}|${spec.audience}`;
    this.scanStarted(key, spec.scanId);
    const pages = spec.pages.map((page, index) => this.walkPage(spec, page, cursorsOf(index, spec.pages.length)));
    if (spec.recheck !== false) this.walkRecheck(spec);
    if (spec.end !== false) this.scanEnded(spec.scanId, spec.end?.state, spec.end?.reason);
    if (spec.publish === false) return { pages, publishSeq: null };
    return { pages, publishSeq: this.publishWalk(spec, key, pages, spec.publish ?? {}) };
  }

  private walkPage(
    spec: WalkSpec,
    raw: PageSpec | readonly string[],
    cursors: ReturnType<typeof cursorsOf>,
  ): PublishedPage {
    const page: PageSpec = isPageSpec(raw) ? raw : { tools: raw };
    const revision = page.revision ?? spec.revision;
    const reported =
      page.reported !== undefined ? page.reported : spec.reported !== undefined ? spec.reported : revision;
    const served = this.served({
      server: spec.server,
      audience: spec.audience,
      scanId: spec.scanId,
      ...cursors,
      revision,
      reported,
      tools: page.tools,
    });
    this.pageRead(spec.scanId, served, reported, page.tools.length, false);
    return served;
  }

  /** Page 1 again, with the tools of the walk's first page. */
  private walkRecheck(spec: WalkSpec): void {
    const override = spec.recheck === undefined ? {} : spec.recheck || {};
    const first = spec.pages[0] ?? [];
    const firstPage: PageSpec = isPageSpec(first) ? first : { tools: first };
    const revision = override.revision ?? firstPage.revision ?? spec.revision;
    const reported =
      override.reported !== undefined ? override.reported : spec.reported !== undefined ? spec.reported : revision;
    const cursors = cursorsOf(0, spec.pages.length);
    const served = this.served({
      server: spec.server,
      audience: spec.audience,
      scanId: spec.scanId,
      ...cursors,
      revision,
      reported,
      tools: firstPage.tools,
    });
    this.pageRead(spec.scanId, served, reported, firstPage.tools.length, true);
  }

  private publishWalk(spec: WalkSpec, key: string, walked: readonly PublishedPage[], publish: PublishSpec): number {
    const defaultRevision = spec.reported === null ? null : spec.revision;
    return this.published({
      key: publish.key ?? key,
      scanId: spec.scanId,
      status: publish.status ?? (defaultRevision === null ? 'UNVERSIONED_OBSERVATION' : 'ELIGIBLE'),
      sourceRevision: publish.sourceRevision !== undefined ? publish.sourceRevision : defaultRevision,
      pages: publish.pages ? publish.pages(walked) : walked,
      tools: publish.tools ?? spec.pages.flatMap((page) => (isPageSpec(page) ? page.tools : page)),
      generation: publish.generation,
      verdicts: publish.verdicts,
    });
  }

  /** The trace so far (events are copied, so later builder calls do not change it). */
  build(): Trace {
    return { header: this.header, events: this.events.map((event) => ({ ...event })) };
  }

  /** The trace as JSON lines, header first, with a trailing newline. */
  jsonl(): string {
    return [this.header, ...this.events].map((line) => JSON.stringify(line)).join('\n') + '\n';
  }
}

function isPageSpec(page: PageSpec | readonly string[]): page is PageSpec {
  return !Array.isArray(page);
}
