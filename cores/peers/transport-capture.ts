/**
 * Hands a key's raw transport to a client library that brings its own MCP client (the SDK v2
 * `Client`, or agents-core, which builds one inside), through the core API as it stands.
 *
 * Fault model: none injected. The core API offers one way onto the simulated transport: the
 * Connector calls `createClient()` and then `connect(transport)` on the SDK 1.x `Client` it got.
 * So `createClient()` returns a stand-in `Client` whose `connect(transport)` gives the transport
 * to the library instead, and resolves once the library's own handshake is done (the world then
 * logs `session_opened`, as for any client). The stand-in itself is never connected and must not
 * be used. What can go wrong: `createClient()` called when no connect of this peer is under way
 * (the Connector calls it synchronously at the start of `connect()`); that is an adapter bug
 * and throws, failing the round loudly.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SessionSpec, SimConnection } from '../../sim/guard/adapter.ts';

/** What a library does with the raw transport: connect its own client over it. */
export type TransportUser = (transport: Transport) => Promise<void>;

/** An SDK 1.x `Client` that only passes its transport on. */
class StandInClient extends Client {
  constructor(private readonly use: TransportUser) {
    super({ name: 'catsim-transport-capture', version: '1.0.0' }, { capabilities: {} });
  }

  override async connect(transport: Transport): Promise<void> {
    await this.use(transport);
  }
}

/**
 * Order of calls: `connect(connector, use)` from the adapter's `attach`; the world then calls the
 * adapter's `createClient()`, which returns `standIn()`.
 */
export class TransportCapture {
  #pending: TransportUser | undefined;

  /** Opens one connection of `session`, giving its transport to `use`. */
  connect(session: SessionSpec, use: TransportUser): Promise<SimConnection> {
    this.#pending = use;
    try {
      return session.connector.connect();
    } finally {
      this.#pending = undefined;
    }
  }

  /** The `Client` for `createClient()`. Throws when no `connect` is under way. */
  standIn(): Client {
    const use = this.#pending;
    this.#pending = undefined;
    if (use === undefined) throw new Error('createClient() was called outside TransportCapture.connect()');
    return new StandInClient(use);
  }
}
