/**
 * The host under test: a deliberately plain MCP host, as many are written. Once per session it
 * lists the server's tools through the SDK `Client`, following `nextCursor` to the last page,
 * keeps that list for the rest of the session, and calls tools by name when its model asks.
 *
 * It knows nothing of catsim: core.ts adapts it. Its defects are typical ones, and the campaign
 * finds them: the list is never refreshed (a `list_changed` is ignored), a cursor loop is walked
 * forever, nothing about a descriptor is checked, and every call the model plans is sent, whatever
 * was disclosed, revoked or changed since.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** One session's catalog: listed on first use, then fixed. */
export class ListOnceHost {
  #tools: Promise<Tool[]> | undefined;

  constructor(private readonly client: Client) {}

  /** Every tool of the server, read page by page the first time; the same list afterwards. */
  listTools(): Promise<Tool[]> {
    this.#tools ??= this.#walk();
    return this.#tools;
  }

  /** Calls `name` with `args`; resolves with the server's result, rejects on an error reply. */
  callTool(name: string, args: Record<string, unknown>): Promise<unknown> {
    return this.client.callTool({ name, arguments: args });
  }

  async #walk(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }
}
