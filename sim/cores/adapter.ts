/**
 * How the simulator drives a catalog core: the reference core, a mutant of it, or a peer client.
 * The world hands the core one Connector per catalog key (the core connects, and reconnects
 * after a cut, through it) and asks it, on behalf of each session's planner, which catalog it
 * would disclose. The core reports what it does through the observation sink it was built with.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Bounds, CoreTimings } from '../plan/types.ts';

/** Ports and settings the world passes to a core. */
export interface CoreEnvironment {
  clock: { now(): number };
  scheduler: { after(delayMs: number, fn: () => void): { id: number }; cancel(task: { id: number }): void };
  random: { next(): number };
  sink: { emit(observation: { type: string; [field: string]: unknown }): void };
  bounds: Bounds;
  timings: CoreTimings;
  /** The policy service, polled by the core (never loses an answer). */
  policySource: { poll(audience: string): Promise<{ audience: string; epoch: number; grants: string[] }> };
  /** The core polls the policy service this often, ms. */
  policyPollMs: number;
  /** HMAC key for leases, as text (the servers verify with the same key). */
  leaseKey: string;
  /** The host's trusted effect classes by tool name (unlisted: WRITE). */
  effectClasses: Record<string, 'READ' | 'RESERVATION' | 'WRITE' | 'DESTRUCTIVE'>;
  /** Human confirmations the world's planners obtained. */
  confirmations: { verify(session: string, planId: string, token: string): boolean };
}

/** One live connection: a connected SDK Client and the identity the server presents now. */
export interface SimConnection {
  client: Client;
  identity: () => string;
}

/** One catalog key as the world offers it to the core. */
export interface SessionSpec {
  /** Opens a connection (a new one after a cut); rejects when the server cannot be reached. */
  connector: { connect(): Promise<SimConnection> };
  tenant: string;
  role: string;
  /** Digest of the endpoint (in the simulator: the server id). */
  endpointDigest: string;
  /** F9: how many refresh loops race on this key's pointer. */
  refreshers: number;
}

/** A tool as disclosed: its name and descriptor digest. */
export interface DisclosedTool {
  name: string;
  descriptorDigest: string;
}

/** What the core showed a session's planner. */
export type DisclosureResult =
  | { ok: true; key: string; generation: number; snapshotDigest: string; tools: DisclosedTool[] }
  | { ok: false; code: string };

/** A planned call, bound to the snapshot that disclosed the tool (SPEC section 1, "plan"). */
export interface SimCallRequest {
  callId: string;
  planId: string;
  session: string;
  principal: string;
  tenant: string;
  role: string;
  /** The identity the session's connection presents now. */
  identity: string;
  plan: { key: string; generation: number; snapshotDigest: string; toolName: string; descriptorDigest: string };
  arguments: Record<string, unknown>;
  confirmationToken?: string;
}

/** One policy update as pushed by the policy service. */
export interface SimPolicyUpdate {
  audience: string;
  epoch: number;
  grants: string[];
}

/** A core under test. Order of calls: `attach` per key, `disclose` any time, `stop` at the end. */
export interface CoreAdapter {
  /** Builds the SDK Client for one connection; peers may pass their own Client options. */
  createClient(): Client;
  /** Starts serving one catalog key. */
  attach(session: SessionSpec): void;
  /** Discloses the catalog of `tenant.role` on the server presenting `identity` to `session` (the core records it). */
  disclose(session: string, tenant: string, role: string, identity: string): DisclosureResult;
  /** Sends one planned call through the core's admission gate; never rejects. */
  call(request: SimCallRequest): Promise<void>;
  /** A policy push arrives. */
  pushPolicy(update: SimPolicyUpdate): void;
  /** Stops all background work (end of round). */
  stop(): void;
}

/** Builds a core for one round. */
export type CoreFactory = (env: CoreEnvironment) => CoreAdapter;
