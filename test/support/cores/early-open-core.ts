/**
 * A core that breaks the rule "When a session counts as open" (docs/CORE-API.md): it brings its
 * own SDK `Client` through `connector.connectTransport`, but its handshake starts the client's
 * `connect` and resolves at once, without waiting for the `initialize` handshake, as an adapter
 * does that forgets an `await`. Selected with `--core ./test/support/cores/early-open-core.ts`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defineCore, type CoreAdapter, type DisclosureResult, type SessionSpec } from 'catsim';

class EarlyOpenCore implements CoreAdapter {
  attach(session: SessionSpec): void {
    const client = new Client({ name: 'early-open', version: '1.0.0' }, { capabilities: {} });
    void session.connector
      .connectTransport(async (transport) => {
        void client.connect(transport).catch(() => undefined); // the missing await
      })
      .catch(() => undefined);
  }

  disclose(): DisclosureResult {
    return { ok: false, code: 'INCOMPLETE_DISCOVERY' };
  }

  async call(): Promise<void> {}

  pushPolicy(): void {}

  stop(): void {}
}

export default defineCore({ name: 'early-open', create: () => new EarlyOpenCore() });
