/**
 * The catalog core as a host embeds it: one registry, one revision memory per catalog key, and
 * one refresh loop per (connection, audience class).
 *
 * Order of calls: construct with ports and configuration; for each connection and audience,
 * `attach(source, audience, endpoint)` returns its refresher; call `start()` on it. Read the
 * published catalog through `registry.active(key)` only.
 */
import type { ScanLimits } from './discovery/config.ts';
import type { PageSource } from './discovery/page-source.ts';
import { CatalogRefresher, type EndpointInfo, type PolicyEpochView, type RefreshConfig } from './discovery/refresher.ts';
import { RevisionWatch } from './discovery/revision-watch.ts';
import type { WalkConstructor } from './discovery/scan.ts';
import { audienceName, keyName, type AudienceClass, type CatalogKey } from './keys.ts';
import type { Clock, ObservationSink, Random, Scheduler } from './ports.ts';
import { CatalogRegistry, type ServeResult } from './registry/registry.ts';
import { InMemoryRegistryStore, type RegistryStore } from './registry/store.ts';
import type { TrustConfig } from './validation/trust.ts';

/** The ports a host passes in. */
export interface HostPorts {
  clock: Clock;
  scheduler: Scheduler;
  random: Random;
  sink: ObservationSink;
  /** Defaults to a fresh {@link InMemoryRegistryStore}. */
  store?: RegistryStore;
}

/** Configuration of a host. */
export interface HostConfig {
  limits: ScanLimits;
  refresh: RefreshConfig;
  trust: TrustConfig;
  policy: PolicyEpochView;
  /** Prefix of scan ids (`<prefix><n>`), so several hosts in one trace stay apart. */
  scanIdPrefix?: string;
  /** The walk implementation; mutants replace it. Defaults to the reference walk. */
  walk?: WalkConstructor;
  /** The registry implementation; mutants replace it. Defaults to {@link CatalogRegistry}. */
  registry?: typeof CatalogRegistry;
}

/** The reference catalog core. */
export class CatalogHost {
  readonly registry: CatalogRegistry;
  readonly #watches = new Map<string, RevisionWatch>();
  readonly refreshers: CatalogRefresher[] = [];
  #scans = 0;

  constructor(private readonly ports: HostPorts, private readonly config: HostConfig) {
    const Registry = config.registry ?? CatalogRegistry;
    this.registry = new Registry(ports.store ?? new InMemoryRegistryStore(), ports.clock, ports.sink);
  }

  /** Creates the refresh loop of one connection and audience class (not started). */
  attach(source: PageSource, audience: AudienceClass, endpoint: EndpointInfo): CatalogRefresher {
    const refresher = new CatalogRefresher({
      source,
      audience,
      endpoint,
      registry: this.registry,
      watchFor: (key) => this.watchFor(key),
      nextScanId: () => `${this.config.scanIdPrefix ?? 'scan-'}${this.#scans++}`,
      policy: this.config.policy,
      trust: this.config.trust,
      limits: this.config.limits,
      refresh: this.config.refresh,
      clock: this.ports.clock,
      scheduler: this.ports.scheduler,
      random: this.ports.random,
      sink: this.ports.sink,
      walk: this.config.walk,
    });
    this.refreshers.push(refresher);
    return refresher;
  }

  /** The revision memory of a key, shared by every refresher of that key. */
  watchFor(key: CatalogKey): RevisionWatch {
    const name = keyName(key);
    let watch = this.#watches.get(name);
    if (watch === undefined) this.#watches.set(name, (watch = new RevisionWatch()));
    return watch;
  }

  /**
   * The generation a session of `audience` on the server presenting `identity` may use now, or
   * why there is none (SPEC sections 6-7): a key whose refresh loop is quarantined is served
   * nothing (operator attention, no automatic admission).
   */
  serve(audience: AudienceClass, identity: string): ServeResult {
    const key: CatalogKey = { identity, ...audience };
    const quarantined = this.refreshers.some((refresher) => refresher.state === 'quarantined' && refresher.audienceName === audienceName(audience) && refresher.identity() === identity);
    if (quarantined) return { ok: false, code: 'SERVER_DISABLED' };
    return this.registry.serve(key);
  }

  /** Stops every refresh loop. */
  stop(): void {
    for (const refresher of this.refreshers) refresher.stop();
  }
}
