/**
 * The host under test: an agent loop as many are written. Each turn it lists the server's tools
 * (every page, following `nextCursor`), runs a model turn on that list, and calls the tool the
 * model picked, if the list it offered holds that name. It brings its own MCP client and takes a
 * transport, as hosts built on a client library do.
 *
 * It knows nothing of catsim: core.ts adapts it. Its defects are typical ones: the list is read
 * again only when a turn runs (a `list_changed` is not listened to), a cursor loop is walked
 * forever, nothing about a descriptor is checked, and the model's pick is called whatever changed
 * since the model was shown its list.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** What the model picked: a tool by name and its arguments, or nothing. */
export interface Pick {
  name: string;
  arguments: Record<string, unknown>;
}

/** A model: given the turn's tools, picks one call (or none). */
export type Model = (tools: readonly Tool[]) => Promise<Pick | undefined>;

/** One server's agent loop. */
export class AgentLoopHost {
  readonly #client = new Client({ name: 'agent-loop-host', version: '1.0.0' }, { capabilities: {} });

  /** Connects the host's client over `transport`; resolves when its initialize handshake is done. */
  connect(transport: Transport): Promise<void> {
    return this.#client.connect(transport);
  }

  /**
   * One turn: list the tools, ask the model, call its pick when the list holds it. Resolves with
   * the tool's result, or undefined when the model picked nothing the list offered.
   */
  async turn(model: Model): Promise<unknown> {
    const tools = await this.listTools();
    const pick = await model(tools);
    if (pick === undefined || !tools.some((tool) => tool.name === pick.name)) return undefined;
    return this.#client.callTool({ name: pick.name, arguments: pick.arguments });
  }

  /** Every tool of the server, read page by page. */
  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#client.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }
}
