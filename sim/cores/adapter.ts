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

/** What the core would show a session's planner now. */
export type DisclosureResult =
  | { ok: true; key: string; generation: number; snapshotDigest: string; tools: string[] }
  | { ok: false; code: string };

/** A core under test. Order of calls: `attach` per key, `disclose` any time, `stop` at the end. */
export interface CoreAdapter {
  /** Builds the SDK Client for one connection; peers may pass their own Client options. */
  createClient(): Client;
  /** Starts serving one catalog key. */
  attach(session: SessionSpec): void;
  /** The catalog the core would disclose to a session of `tenant.role` on the server presenting `identity`. */
  disclose(tenant: string, role: string, identity: string): DisclosureResult;
  /** Stops all background work (end of round). */
  stop(): void;
}

/** Builds a core for one round. */
export type CoreFactory = (env: CoreEnvironment) => CoreAdapter;
