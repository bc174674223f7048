/**
 * A {@link PageSource} over a Connector: connects on first use, and after a disconnect connects
 * again on the next request (SPEC section 2: "the connection's identity comes from a Connector
 * port, which also reconnects"). The request that found the connection closed still ends its scan
 * INCOMPLETE (DISCONNECTED); the retry runs on a fresh connection.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SdkPageSource, type PageFailure, type PageReply, type PageSource } from './page-source.ts';

/** One live connection: a connected SDK Client and the identity the peer presents. */
export interface Connection {
  client: Client;
  /** Read at call time: the identity the peer presents now. */
  identity: () => string;
  /**
   * True once the transport closed the connection on an over-long incoming message (a real
   * stdio connection's `messageTooLarge`, src/connect/); absent: never.
   */
  messageTooLarge?: () => boolean;
}

/**
 * Opens connections for one catalog key. `connect` rejects when the server cannot be reached;
 * the source reports that as a disconnected page.
 */
export interface Connector {
  connect(): Promise<Connection>;
}

/** A page source that owns its connection through a {@link Connector}. */
export class ConnectedPageSource implements PageSource {
  #connection: Connection | undefined;
  #connecting: Promise<Connection | undefined> | undefined;
  #source: SdkPageSource | undefined;
  #changesBefore = 0;
  #lastIdentity = '';
  /** Whether the live connection has answered a page (see `onConnectionLost`). */
  #served = false;

  /**
   * `onListChanged` runs on every `tools/list_changed`, on whichever connection it arrives, and
   * once for every connection this source opens, first and re-connections alike: a notification is
   * not replayed on a new connection, so one sent while no connection was live (while it was
   * down, or before this process started, with a catalog kept in a durable store) is taken as
   * missed, and the call barrier holds calls until a scan started on the new connection has
   * settled (SPEC section 7; test/faults/f18-host-restart.test.ts shows a restart that needed it).
   */
  constructor(
    private readonly connector: Connector,
    private readonly onListChanged: () => void = () => undefined,
    /**
     * Runs when a live connection that had answered at least one page closes: the push channel
     * went with it, so the owner walks now (which reconnects) rather than at its next poll. It is
     * no notification (nothing was missed yet; the new connection counts as one when it opens),
     * so it raises no call barrier. A connection that closes before answering a page is a failed
     * reconnect, and the scan that opened it backs off as for any INCOMPLETE walk.
     */
    private readonly onConnectionLost: () => void = () => undefined,
  ) {}

  /** Connects now (the first scan would otherwise do it). Resolves false when it failed. */
  async open(): Promise<boolean> {
    return (await this.#ensure()) !== undefined;
  }

  identity(): string {
    return this.#connection?.identity() ?? this.#lastIdentity;
  }

  /**
   * The SDK Client of the live connection, for sending `tools/call` on this catalog key (SPEC
   * section 2: one Client per key); undefined while disconnected. `open()` reconnects.
   */
  currentClient(): Client | undefined {
    return this.#connection?.client;
  }

  changeCount(): number {
    return this.#changesBefore + (this.#source?.changeCount() ?? 0);
  }

  async listPage(cursor: string | undefined, scanId: string, timeoutMs: number): Promise<PageReply | PageFailure> {
    const connection = await this.#ensure();
    if (connection === undefined || this.#source === undefined) return { ok: false, kind: 'disconnected' };
    const reply = await this.#source.listPage(cursor, scanId, timeoutMs);
    if (reply.ok && this.#connection === connection) this.#served = true;
    if (!reply.ok && reply.kind === 'disconnected') this.#drop();
    return reply;
  }

  async #ensure(): Promise<Connection | undefined> {
    if (this.#connection !== undefined) return this.#connection;
    this.#connecting ??= this.connector
      .connect()
      .then(
        (connection) => this.#adopt(connection),
        () => undefined,
      )
      .finally(() => {
        this.#connecting = undefined;
      });
    return this.#connecting;
  }

  #adopt(connection: Connection): Connection {
    this.#connection = connection;
    this.#lastIdentity = connection.identity();
    this.#source = new SdkPageSource(connection.client, connection.identity, {
      onListChanged: this.onListChanged,
      messageTooLarge: connection.messageTooLarge,
    });
    this.#served = false;
    connection.client.onclose = () => {
      if (this.#connection !== connection) return;
      const served = this.#served;
      this.#drop();
      // A connection that had served a page took the key's push channel with it (a legacy
      // server's unsolicited list_changed, a modern one's listen stream): until a new one opens,
      // nothing the server changes is announced, so the refreshers walk (and so reconnect) now,
      // not at their next poll (seed 1 round 3750 of the default: I33 by 1 ms). One that served
      // nothing is a failed reconnect: the scan that opened it ends INCOMPLETE and backs off.
      if (served) this.onConnectionLost();
    };
    this.onListChanged();
    return connection;
  }

  #drop(): void {
    if (this.#connection === undefined) return;
    this.#lastIdentity = this.#connection.identity();
    this.#changesBefore += this.#source?.changeCount() ?? 0;
    this.#connection = undefined;
    this.#source = undefined;
  }
}
