/**
 * How the simulator drives a catalog core: the reference core, a mutant of it, or a peer client.
 * The world connects one SDK `Client` per catalog key and hands it to the adapter; the adapter
 * reports what it does through the observation sink it was built with.
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

/** One connection as the core sees it. */
export interface CoreConnection {
  client: Client;
  /** The identity the connection presents now. */
  identity: () => string;
  tenant: string;
  role: string;
  /** Digest of the endpoint (in the simulator: the server id). */
  endpointDigest: string;
}

/** A core under test. Order of calls: `createClient`, (the world connects it), `attach`, ..., `stop`. */
export interface CoreAdapter {
  /** Builds the SDK Client for one catalog key; peers may pass their own Client options. */
  createClient(): Client;
  /** Starts serving one connected client. */
  attach(connection: CoreConnection): void;
  /** Stops all background work (end of round). */
  stop(): void;
}

/** Builds a core for one round. */
export type CoreFactory = (env: CoreEnvironment) => CoreAdapter;
