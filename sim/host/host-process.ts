/**
 * The host process of a round: the core under test as the world drives it, one boot after
 * another when the plan restarts the host (F18).
 *
 * Fault model (F18): the host process dies at a seeded point and a new core instance starts on
 * the same disk (sim/host/host-disk.ts). Each planned restart is armed at its `atMs` and fires at
 * the first occurrence of its point from then on, until T_heal:
 * - `at_time`: at `atMs` itself, whatever the host is doing (mid-walk between pages, calls in
 *   flight, idle);
 * - `in_publish`: inside the publish transaction, before its catalog receipt row is written (the
 *   disk's trigger); SQLite rolls the transaction back;
 * - `after_commit`: right after the core reports a `published` (the commit is on the disk), before
 *   the publish returns to its caller;
 * - `after_lease`: when a lease about to be consumed (issued, its call not yet dispatched).
 * A death is total: from that instant the boot's scheduled callbacks never run, its observations
 * and failures never reach the trace, its disk writes throw, its connections are cut and a
 * connector of the dead boot refuses to connect. `downMs` later a new boot starts: a fresh core
 * from the same factory, with a fresh environment on the same disk, offered every catalog key
 * again. While the host is down the world's planners ask nothing and send nothing.
 *
 * A round without restarts gets no disk and one boot: the core's environment and trace are exactly
 * those of a round before F18.
 */
import type Database from 'better-sqlite3';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  CallRequest,
  Connection,
  Connector,
  CoreEnvironment,
  CoreFactory,
  CoreObservation,
  CoreTask,
  DisclosureResult,
  ModelTurn,
  PolicyUpdate,
  RollbackTrigger,
  EmergencyDisableOrder,
  DeprecationOrder,
  AliasOrder,
  BackupSpec,
  RemovalOrder,
  RemovalAnswer,
  SessionSpec,
  TransportConnection,
  TransportHandshake,
} from '../guard/adapter.ts';
import { guardCore, type CoreFailure, type WorldCore } from '../guard/guard.ts';
import type { HostCrashPoint, HostRestart } from '../plan/types.ts';
import type { TraceRecorder } from '../trace/recorder.ts';
import { HostDisk, HostDown, type DiskWrite } from './host-disk.ts';

/**
 * The world's side of a {@link Connector}: `alive`, when given, says whether the boot that asked
 * still lives once the connection completes. For a boot that died meanwhile no session opens (no
 * `session_opened`, no notification reaches it) and the host process closes the connection.
 */
export interface WorldConnector extends Connector {
  connect(alive?: () => boolean): Promise<Connection>;
  connectTransport(handshake: TransportHandshake, alive?: () => boolean): Promise<TransportConnection>;
}

/** A {@link BackupSpec} whose connector is the world's (F37). */
export interface WorldBackupSpec extends BackupSpec {
  connector: WorldConnector;
}

/** A {@link SessionSpec} whose connector is the world's. */
export interface WorldSessionSpec extends SessionSpec {
  connector: WorldConnector;
}

/** One catalog key the world offers every boot, with the way to cut its connections. */
export interface HostSession {
  spec: WorldSessionSpec;
  /** Cuts every open connection of the session, silently (they die with the process). */
  cut(): void;
}

/** What the host process needs from its round. */
export interface HostProcessOptions {
  factory: CoreFactory;
  /** The environment of boot 0 (its `random` included); later boots get `randomOf(boot)`. */
  env: CoreEnvironment;
  randomOf(boot: number): CoreEnvironment['random'];
  restarts: readonly HostRestart[];
  tHealMs: number;
  recorder: TraceRecorder;
  /** Schedules `fn` at `atMs` on the world (not a core task: the world's own event). */
  schedule(atMs: number, fn: () => void): void;
  now(): number;
  onFailure(failure: CoreFailure): void;
}

/** One boot: its core and whether it still lives. */
interface Boot {
  number: number;
  core: WorldCore;
  alive: boolean;
  tasks: Set<CoreTask>;
}

/** The core of a round across its boots (see the file header). */
export class HostProcess implements WorldCore {
  readonly #options: HostProcessOptions;
  readonly #disk: HostDisk | undefined;
  readonly #sessions: HostSession[] = [];
  /** The backup endpoints handed so far (F37), in order; each later boot is handed them again. */
  readonly #backups: WorldBackupSpec[] = [];
  #restarts: HostRestart[];
  #boot: Boot;
  #down = false;

  constructor(options: HostProcessOptions) {
    this.#options = options;
    this.#restarts = [...options.restarts]
      .filter((restart) => restart.atMs < options.tHealMs)
      .sort((a, b) => a.atMs - b.atMs);
    this.#disk = this.#restarts.length > 0 ? new HostDisk() : undefined;
    this.#boot = this.#start(0);
    for (const restart of this.#restarts)
      if (restart.point === 'at_time') options.schedule(restart.atMs, () => this.#crashAtTime(restart));
  }

  /** Whether no boot is running (between a crash and the restart). */
  get down(): boolean {
    return this.#down;
  }

  #start(number: number): Boot {
    const boot: Boot = { number, core: undefined as unknown as WorldCore, alive: true, tasks: new Set() };
    const env = this.#envOf(boot);
    boot.core = guardCore(this.#options.factory, env, (failure) => {
      if (boot.alive) this.#options.onFailure(failure);
    });
    this.#disk?.arm();
    return boot;
  }

  /** A boot's environment: fenced scheduler and sink, its random stream, and the disk's connection. */
  #envOf(boot: Boot): CoreEnvironment {
    const base = this.#options.env;
    const env: CoreEnvironment = {
      ...base,
      random: boot.number === 0 ? base.random : this.#options.randomOf(boot.number),
      scheduler: this.#disk === undefined ? base.scheduler : this.#fencedScheduler(boot),
      sink: this.#disk === undefined ? base.sink : { emit: (observation) => this.#emit(boot, observation) },
    };
    if (this.#disk !== undefined) {
      const db = this.#disk.connect(boot.number, (write) => this.#onDiskWrite(boot, write));
      env.disk = { boot: boot.number, sqlite: (): Database.Database => db };
    }
    return env;
  }

  #fencedScheduler(boot: Boot): CoreEnvironment['scheduler'] {
    const { scheduler } = this.#options.env;
    return {
      after: (delayMs, fn) => {
        const task: CoreTask = scheduler.after(delayMs, () => {
          boot.tasks.delete(task);
          if (boot.alive) fn();
        });
        boot.tasks.add(task);
        return task;
      },
      cancel: (task) => {
        boot.tasks.delete(task);
        scheduler.cancel(task);
      },
    };
  }

  /**
   * A boot's observation reaches the trace while it lives. `after_commit` strikes right after a
   * `published` is written (the host's log of the commit made it out): the process dies before
   * the publish returns to its caller, so nothing the caller would have done with it happens: the
   * emit throws {@link HostDown}, which unwinds the dying call (a real process would stop there).
   */
  #emit(boot: Boot, observation: CoreObservation): void {
    if (!boot.alive) return;
    this.#options.env.sink.emit(observation);
    if (observation.type === 'published' && this.#fires('after_commit')) {
      this.#crash(boot, 'after_commit', null);
      throw new HostDown(boot.number);
    }
  }

  /** Inside SQLite: whether this crash-point write kills the boot (it then throws and rolls back). */
  #onDiskWrite(boot: Boot, write: DiskWrite): boolean {
    if (!boot.alive) return true;
    if (write.kind === 'catalog_receipt' && this.#fires('in_publish')) {
      this.#crash(boot, 'in_publish', {
        key: write.key,
        generation: write.generation,
        snapshotDigest: write.snapshotDigest ?? '',
      });
      return true;
    }
    if (write.kind === 'consume_lease' && this.#fires('after_lease')) {
      this.#crash(boot, 'after_lease', null);
      return true;
    }
    return false;
  }

  /** Whether the next armed restart is `point` and due now (then it is used up by the crash). */
  #fires(point: HostCrashPoint): boolean {
    const next = this.#restarts[0];
    const now = this.#options.now();
    return !this.#down && next !== undefined && next.point === point && next.atMs <= now && now < this.#options.tHealMs;
  }

  #crashAtTime(restart: HostRestart): void {
    if (this.#restarts[0] !== restart || this.#down) {
      // An earlier restart is still pending (its point has not occurred): this one waits behind it.
      return;
    }
    this.#crash(this.#boot, 'at_time', null);
  }

  #crash(
    boot: Boot,
    point: HostCrashPoint,
    cut: { key: string; generation: number; snapshotDigest: string } | null,
  ): void {
    const restart = this.#restarts.shift()!;
    boot.alive = false;
    this.#down = true;
    this.#disk?.kill();
    for (const task of boot.tasks) this.#options.env.scheduler.cancel(task);
    boot.tasks.clear();
    this.#options.recorder.world('host_crashed', { boot: boot.number, point, cut });
    const now = this.#options.now();
    // The cuts and the restart are the world's own events, after the dying call has unwound.
    this.#options.schedule(now, () => {
      for (const session of this.#sessions) session.cut();
    });
    this.#options.schedule(now + restart.downMs, () => this.#restart(boot.number + 1));
  }

  #restart(number: number): void {
    this.#boot = this.#start(number);
    this.#down = false;
    const disk = this.#disk!;
    this.#options.recorder.world('host_restarted', {
      boot: number,
      committed: disk.pointers(),
      receipts: disk.receiptLeaseIds(),
    });
    for (const session of this.#sessions) this.#boot.core.attach(this.#specOf(this.#boot, session.spec));
    for (const backup of this.#backups)
      this.#boot.core.attachBackup({ ...backup, connector: this.#connectorOf(this.#boot, backup.connector) });
  }

  /**
   * A session's spec for one boot: its connector refuses once the boot died, and a connection
   * that was still being opened when the boot died is closed as it completes (it dies with the
   * process: no notification or reply may reach a dead boot's client).
   */
  #specOf(boot: Boot, spec: WorldSessionSpec): SessionSpec {
    return { ...spec, connector: this.#connectorOf(boot, spec.connector) };
  }

  /** `connector` for one boot, as {@link #specOf} says; the world's own when the host has no disk (no restarts). */
  #connectorOf(boot: Boot, world: WorldConnector): Connector {
    if (this.#disk === undefined) return world;
    return {
      connect: async () => {
        if (!boot.alive) throw new HostDown(boot.number);
        const connection = await world.connect(() => boot.alive);
        if (boot.alive) return connection;
        await connection.client.close();
        throw new HostDown(boot.number);
      },
      connectTransport: async (handshake) => {
        if (!boot.alive) throw new HostDown(boot.number);
        const connection = await world.connectTransport(handshake, () => boot.alive);
        if (boot.alive) return connection;
        await connection.transport.close();
        throw new HostDown(boot.number);
      },
    };
  }

  createClient(): Client {
    return this.#boot.core.createClient();
  }

  /** Offers the core a catalog key; each later boot is offered it again. */
  attach(spec: WorldSessionSpec, cut: () => void = () => undefined): void {
    this.#sessions.push({ spec, cut });
    this.#boot.core.attach(this.#specOf(this.#boot, spec));
  }

  disclose(session: string, tenant: string, role: string, identity: string): DisclosureResult {
    return this.#boot.core.disclose(session, tenant, role, identity);
  }

  call(request: CallRequest): Promise<void> {
    if (this.#down) return Promise.resolve();
    return this.#boot.core.call(request);
  }

  /** Whether the core implements the optional `modelTurn`; every boot comes from one factory, so boot 0 says. */
  get surfaceStage(): boolean {
    return this.#boot.core.surfaceStage;
  }

  /** A model turn of the current boot; the planners start none while the host is down. */
  modelTurn(turn: ModelTurn): Promise<void> {
    if (this.#down) return Promise.resolve();
    return this.#boot.core.modelTurn(turn);
  }

  /** Whether the core implements the optional `rollback`; boot 0 says, as for `surfaceStage`. */
  get rollbackSupported(): boolean {
    return this.#boot.core.rollbackSupported;
  }

  /** A rollback trigger to the current boot; none while the host is down (the caller writes `host_down`). */
  rollback(trigger: RollbackTrigger): Promise<void> {
    if (this.#down) return Promise.resolve();
    return this.#boot.core.rollback(trigger);
  }

  /** Whether the core implements the optional `emergencyDisable`; boot 0 says, as for `surfaceStage`. */
  get emergencyDisableSupported(): boolean {
    return this.#boot.core.emergencyDisableSupported;
  }

  /** An emergency disable to the current boot; none while the host is down (the caller writes `host_down`). */
  emergencyDisable(order: EmergencyDisableOrder): void {
    if (!this.#down) this.#boot.core.emergencyDisable(order);
  }

  /** Whether the core implements the optional `deprecate`; boot 0 says, as for `surfaceStage`. */
  get deprecateSupported(): boolean {
    return this.#boot.core.deprecateSupported;
  }

  /** A deprecation to the current boot; none while the host is down (the caller writes `host_down`). */
  deprecate(order: DeprecationOrder): void {
    if (!this.#down) this.#boot.core.deprecate(order);
  }

  /** Whether the core implements the optional `alias`; boot 0 says, as for `surfaceStage`. */
  get aliasSupported(): boolean {
    return this.#boot.core.aliasSupported;
  }

  /** An alias order to the current boot; none while the host is down (the caller writes `host_down`). */
  alias(order: AliasOrder): void {
    if (!this.#down) this.#boot.core.alias(order);
  }

  /** The number of the current boot (0 until the first restart, F18). */
  get boot(): number {
    return this.#boot.number;
  }

  /** Whether the core implements the optional `attachBackup`; boot 0 says, as for `surfaceStage`. */
  get backupSupported(): boolean {
    return this.#boot.core.backupSupported;
  }

  /** Hands the core a backup endpoint (F37); each later boot is handed it again. */
  attachBackup(backup: WorldBackupSpec): void {
    this.#backups.push(backup);
    this.#boot.core.attachBackup({ ...backup, connector: this.#connectorOf(this.#boot, backup.connector) });
  }

  /** Whether the core implements the optional `remove`; boot 0 says, as for `surfaceStage`. */
  get removeSupported(): boolean {
    return this.#boot.core.removeSupported;
  }

  /** A removal order to the current boot; while the host is down none, answered `HOST_DOWN` (the caller writes `host_down` first). */
  remove(order: RemovalOrder): RemovalAnswer {
    if (this.#down) return { removed: false, code: 'HOST_DOWN', reason: 'the host is down' };
    return this.#boot.core.remove(order);
  }

  pushPolicy(update: PolicyUpdate): void {
    // A push to a dead host is lost: the next boot polls.
    if (!this.#down) this.#boot.core.pushPolicy(update);
  }

  stop(): void {
    if (!this.#down) this.#boot.core.stop();
    this.#disk?.close();
  }
}

/** Whether an unhandled rejection is a dead boot's (its code still unwinding), not a core failure. */
export function isHostDown(reason: unknown): boolean {
  return reason instanceof HostDown;
}
