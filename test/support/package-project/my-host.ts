// The project's own Client-based host: it takes page 1 of tools/list for the whole catalog.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export class FirstPageHost {
  constructor(private readonly client: Client) {}

  listTools(): Promise<unknown> {
    return this.client.listTools();
  }

  callTool(name: string, args: Record<string, unknown>): Promise<unknown> {
    return this.client.callTool({ name, arguments: args });
  }
}
