/**
 * The mutant connector of the modern era (MCP 2026-07-28): the reference {@link EitherEraConnector}
 * with exactly one defence removed (SPEC section 12).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EitherEraConnector } from '../../src/mcp/modern-era.ts';
import { EnvelopeTransport } from '../../src/mcp/modern-era.ts';

/**
 * Listens only on its first modern connection: a reconnect (after a cut, F15 or F27, or a stream
 * the server completed) opens a connection with no `subscriptions/listen`, as a client that took
 * the subscription for the server's state would. It hears of no change from then on.
 */
export class NeverResubscribesConnector extends EitherEraConnector {
  #listened = false;

  protected override async handshake(client: Client, transport: Transport): Promise<void> {
    if (!this.#listened) {
      this.#listened = true;
      return super.handshake(client, transport);
    }
    await client.connect(new EnvelopeTransport(transport, this.identity));
  }
}
