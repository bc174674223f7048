/**
 * The scripted model endpoint of black-box mode (`--model-endpoint`, issue 34): catsim answers on
 * loopback as the host's model, for OpenAI Chat Completions (`POST /v1/chat/completions`), OpenAI
 * Responses (`POST /v1/responses`) and Anthropic Messages (`POST /v1/messages`), each with or
 * without `stream: true` (a streamed answer is the same answer as server-sent events, written at
 * once). No key is asked for or kept.
 *
 * The case's steps become model turns: a `call` step is answered with one tool call, the tool
 * result the host sends back in its next request is posted as that step's result, `sleep` waits,
 * `disclose` passes at the model request that reaches it, and `end` is answered with plain text
 * and stop. Each request's `tools` array is what the host shows its model: its tools are mapped to
 * the case's entries (rule below) and written as `disclosure` world events, so the oracle's one
 * check of a host's self-report (oracle/host-wire.ts, I4: against the last whole walk served to
 * that session; a tool never served fails) judges it.
 *
 * The name rule, for a tool name H in a request: H is `<prefix>_<entry>__<tool>` or
 * `<entry>__<tool>` (e.g. `mcp__alpha__search`, `alpha__search`) for an entry of the case (the
 * longest entry name that fits wins) → that entry's `<tool>`; else H is a tool name of exactly one
 * entry's server (any revision) → that entry's H; else H is the host's own tool, recorded as
 * unmapped and not judged. Names are matched as written or rewritten with every character outside
 * `[A-Za-z0-9_]` as `_` (the Codex CLI's rewriting). A Responses `namespace` tool N's tool T is
 * named `N__T` (Codex names its MCP servers' namespaces `mcp__<server>`, so `mcp__alpha__search`)
 * and called with `namespace: N, name: T`. A `call` step of (entry, tool) is answered with the one
 * name of the request that maps to it; several end the case HOST_FAILED with one line naming it;
 * none: a guessed name in the host's naming of that entry's other tools, or, when the request
 * shows nothing of that entry, the step is refused and the next one taken (HOST_FAILED instead
 * when an unmapped tool is named like a tool of the case: the rule does not fit the host).
 *
 * Bad input ends the case HOST_FAILED with one line (`failure`), the request answered in the API's
 * error shape: a request that is malformed (400: not a JSON object, no `messages` / `input`,
 * `tools` not an array of named tools), or one the host closed before catsim answered it (an
 * abandoned stream). A path that is no API of the endpoint is 404 and recorded, not fatal (a
 * host may probe, e.g. `GET /v1/models`). Every request is recorded (`requests`) and written to
 * the trace as a `model_request` world event when answered.
 */
import { createHash } from 'node:crypto';
import type { WorldFields } from '../contract/trace/types.ts';
import type { BlackBoxCase } from './case.ts';
import type { CaseWorld } from './case-world.ts';
import type { Driver } from './driver.ts';

/** The API shapes: OpenAI Chat Completions, OpenAI Responses, Anthropic Messages. */
export type ModelApi = 'openai.chat' | 'openai.responses' | 'anthropic.messages';

/** The paths of the model endpoint and their API shapes. */
export const MODEL_PATHS: Readonly<Record<string, ModelApi>> = {
  '/v1/chat/completions': 'openai.chat',
  '/v1/responses': 'openai.responses',
  '/v1/messages': 'anthropic.messages',
};

/**
 * One `model_request` record: a request to the model endpoint and what catsim answered; the same
 * fields as the `model_request` event of catsim.trace.v1 (contract/trace/events.ts) and the
 * driver contract's `ModelRequest`.
 */
export type ModelRequest = { readonly type: 'model_request' } & WorldFields<'model_request'>;

/** One tool of a model request: the host's name, a digest of its item as sent, and what it maps to. */
export type ModelTool = ModelRequest['tools'][number];

/** An answer to write: HTTP status and JSON body, or (a streamed answer) the body as server-sent events. */
export interface ModelAnswer {
  readonly status: number;
  readonly body: unknown;
  /** With `stream: true` and status 200: the `text/event-stream` body to write instead of `body`. */
  readonly sse?: string;
}

/** How long one model request waits for the next step's precondition per driver poll, ms. */
const STEP_POLL_MS = 1_000;

/** The model side of one case. Requests are taken one at a time, in arrival order. */
export class ModelEndpoint {
  /** Every request, in arrival order. */
  readonly requests: ModelRequest[] = [];
  /** The one-line HOST_FAILED reason once a step could not be mapped, else null. */
  failure: string | null = null;
  /** How many requests have reached the endpoint (answered or not yet). */
  arrivals = 0;
  /** Set when catsim cuts the host off (timeout, stall): a request closed from then on is not the host abandoning it. */
  cutOff = false;
  #queue: Promise<unknown> = Promise.resolve();
  /** The call step answered last and its call id, until the host sends its result. */
  #pending: { seq: number; id: string } | null = null;

  constructor(
    private readonly spec: BlackBoxCase,
    private readonly world: CaseWorld,
    private readonly driver: Driver,
  ) {}

  /** Resolves once every request taken so far is answered (after the hosting closed: refused 503, recorded). */
  idle(): Promise<void> {
    return this.#queue.then(() => undefined);
  }

  /**
   * Answers one request (path, method, raw body text); `signal` aborts a wait for a step when the
   * case closes, `gone` when the host closed this request's connection (an abandoned stream).
   */
  handle(method: string, path: string, text: string, signal: AbortSignal, gone?: AbortSignal): Promise<ModelAnswer> {
    this.arrivals += 1;
    const next = this.#queue.then(() => this.#handle(method, path, text, signal, gone));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #handle(
    method: string,
    path: string,
    text: string,
    signal: AbortSignal,
    gone: AbortSignal | undefined,
  ): Promise<ModelAnswer> {
    const api = method === 'POST' ? (MODEL_PATHS[path] ?? null) : null;
    const base = { type: 'model_request' as const, n: this.requests.length, api, method, path };
    let stream = false;
    const refuse = (status: number, message: string, tools: ModelTool[] = [], fatal = true): ModelAnswer => {
      const line = fatal ? `HOST_FAILED: ${message}` : message;
      const answer = { kind: 'error' as const, seq: null, name: null, message: line };
      this.#record({ ...base, status, stream, tools, toolResult: null, answer });
      if (fatal && this.failure === null) this.failure = line;
      const shape = api ?? (path.endsWith('/messages') ? 'anthropic.messages' : 'openai.chat');
      return { status, body: errorBody(shape, status, line) };
    };
    if (api === null) {
      const built = Object.keys(MODEL_PATHS).join(', POST ');
      return refuse(404, `catsim: no model route ${method} ${path} (built: POST ${built})`, [], false);
    }
    const parsed = this.#parse(api, text);
    stream = parsed.stream;
    if ('problem' in parsed)
      return refuse(400, `model request ${base.n} (${method} ${path}) is malformed: ${parsed.problem}`);
    const { tools, calls, model } = parsed;
    const toolResult = this.#takeResult(api, parsed.messages);
    const n = base.n + 1;
    const ok = (answer: ModelRequest['answer'], body: unknown): ModelAnswer => {
      this.#record({ ...base, status: 200, stream, tools, toolResult, answer });
      return stream ? { status: 200, body, sse: eventStream(api, body) } : { status: 200, body };
    };
    const say = (seq: number | null, words: string): ModelAnswer =>
      ok({ kind: 'text', seq, name: null, message: null }, textBody(api, model, n, words));
    this.#disclose(tools);
    const waiting = gone === undefined ? signal : AbortSignal.any([signal, gone]);
    for (;;) {
      const seq = this.driver.results.length + 1;
      if (this.driver.ended || seq > this.spec.steps.length) return say(null, 'catsim: the case has ended');
      const step = await this.driver.step(seq, STEP_POLL_MS, waiting);
      if (step === null) {
        if (gone?.aborted === true && !signal.aborted && !this.cutOff)
          return refuse(
            499,
            `model request ${base.n} (${method} ${path}): the host closed it before catsim answered (it abandoned the ${stream ? 'stream' : 'request'} while step ${seq} was due)`,
            tools,
          );
        if (signal.aborted || this.cutOff)
          return refuse(503, 'catsim: the case closed while this request waited for its step', tools, false);
        continue;
      }
      if (step.kind === 'sleep') await new Promise((resolve) => setTimeout(resolve, step.ms));
      if (step.kind === 'sleep' || step.kind === 'end') this.driver.post({ seq, status: 'ok' });
      if (step.kind === 'end') return say(seq, 'catsim: the case is over');
      if (step.kind === 'disclose')
        this.driver.post({ seq, status: 'ok', tools: {}, detail: `disclosed by model request ${base.n}` });
      if (step.kind !== 'call') continue;
      const chosen = this.#callOf(step, seq, base.n, tools, calls);
      if ('failure' in chosen) {
        this.driver.post({ seq, status: 'refused', detail: `HOST_FAILED: ${chosen.failure}`.slice(0, 200) });
        return refuse(400, chosen.failure, tools);
      }
      if ('refused' in chosen) {
        this.driver.post({ seq, status: 'refused', detail: chosen.refused });
        continue;
      }
      const id = `${api === 'anthropic.messages' ? 'toolu' : 'call'}_catsim_${seq}`;
      this.#pending = { seq, id };
      const answer = { kind: 'tool_call' as const, seq, name: chosen.hostName, message: null };
      return ok(answer, callBody(api, model, n, id, chosen, step.arguments));
    }
  }

  /** Keeps one request's record and writes it to the trace as a `model_request` world event. */
  #record(request: ModelRequest): void {
    this.requests.push(request);
    const { type: _type, ...fields } = request;
    this.world.recorder.world('model_request', fields);
  }

  /** A request body's parts, or what makes it malformed (one phrase); either way whether it asked for a stream. */
  #parse(
    api: ModelApi,
    text: string,
  ):
    | {
        stream: boolean;
        messages: unknown[];
        model: string;
        tools: ModelTool[];
        calls: Map<string, { name: string; namespace?: string }>;
      }
    | { problem: string; stream: boolean } {
    const body = parseJson(text);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return { problem: 'the body is not a JSON object', stream: false };
    const request = body as Record<string, unknown>;
    const stream = request.stream === true;
    const messages = api === 'openai.responses' ? inputItems(request.input) : request.messages;
    if (!Array.isArray(messages))
      return {
        problem: api === 'openai.responses' ? 'it has no input (a string or an array)' : 'it has no messages array',
        stream,
      };
    const mapped = this.#tools(api, request.tools);
    if (typeof mapped === 'string') return { problem: mapped, stream };
    const model = typeof request.model === 'string' ? request.model : 'catsim';
    return { stream, messages, model, ...mapped };
  }

  /**
   * How a call step is answered (the name rule, docs/BLACK-BOX.md): the one tool of the request
   * that maps to it; else a guessed name in the host's naming of that entry's other tools; else,
   * when nothing of that entry is shown, the step refused; a HOST_FAILED line when several tools
   * map to it, or when an unmapped tool is named like a tool of the case (the rule does not fit).
   */
  #callOf(
    step: { readonly server: string; readonly tool: string },
    seq: number,
    n: number,
    tools: readonly ModelTool[],
    calls: ReadonlyMap<string, { name: string; namespace?: string }>,
  ): { hostName: string; name: string; namespace?: string } | { failure: string } | { refused: string } {
    const asked = `step ${seq} calls ${step.server}/${step.tool} and model request ${n}`;
    const rule = '(docs/BLACK-BOX.md, LLM hosts: the name rule)';
    const names = tools.filter((tool) => tool.entry === step.server && tool.tool === step.tool).map((t) => t.name);
    if (names.length > 1)
      return { failure: `${asked} shows several tools that map to it (${names.join(', ')}) ${rule}` };
    const [name] = names;
    if (name !== undefined) return { hostName: name, ...(calls.get(name) ?? { name }) };
    // Not shown: a guessed name, as a model may send; the wire shows whether the host forwards it.
    const sibling = tools.find((tool) => tool.entry === step.server && tool.tool !== null);
    if (sibling !== undefined) return guessedCall(sibling, calls.get(sibling.name), step.tool);
    const lookalike = tools.find((tool) => tool.entry === null && endsWithServedName(tool.name, this.spec));
    if (lookalike !== undefined)
      return {
        failure: `${asked} shows no tool the name rule maps to ${step.server}, though it shows ${lookalike.name}, named like a tool of the case ${rule}`,
      };
    return { refused: `model request ${n} shows the model no tool of ${step.server} (the host left that server out)` };
  }

  /** The request's tools, mapped by the name rule, and how each is called (a Responses namespace's tools), or a one-line problem. */
  #tools(
    api: ModelApi,
    raw: unknown,
  ): { tools: ModelTool[]; calls: Map<string, { name: string; namespace?: string }> } | string {
    const tools: ModelTool[] = [];
    const calls = new Map<string, { name: string; namespace?: string }>();
    if (raw === undefined) return { tools, calls };
    if (!Array.isArray(raw)) return 'tools must be an array';
    const add = (name: string, item: unknown): void => {
      const digest = createHash('sha256').update(JSON.stringify(item)).digest('hex');
      tools.push({ name, digest, ...mapName(name, this.spec, this.world) });
    };
    for (const item of raw) {
      if (api === 'openai.responses') {
        const tool = item as { type?: unknown; name?: unknown; tools?: unknown } | null;
        if (tool?.type === 'namespace') {
          if (typeof tool.name !== 'string' || !Array.isArray(tool.tools))
            return 'every namespace tool needs a name and a tools array';
          for (const inner of tool.tools as { name?: unknown }[]) {
            if (typeof inner?.name !== 'string') return `every tool of namespace ${tool.name} needs a name`;
            const name = `${tool.name}__${inner.name}`;
            calls.set(name, { name: inner.name, namespace: tool.name });
            add(name, inner);
          }
          continue;
        }
        // A built-in tool (web_search, local_shell, ...) has no name: recorded by its type, never mapped.
        if (typeof tool?.name !== 'string' && typeof tool?.type === 'string' && tool.type !== 'function') {
          const digest = createHash('sha256').update(JSON.stringify(item)).digest('hex');
          tools.push({ name: `<${tool.type}>`, digest, entry: null, tool: null });
          continue;
        }
      }
      const name =
        api === 'openai.chat'
          ? (item as { function?: { name?: unknown } } | null)?.function?.name
          : (item as { name?: unknown } | null)?.name;
      if (typeof name !== 'string')
        return `every tool needs a name (${api === 'openai.chat' ? 'function.name' : 'name'})`;
      add(name, item);
    }
    return { tools, calls };
  }

  /** Writes one `disclosure` per entry the request shows tools of (generation: the step it reached). */
  #disclose(tools: readonly ModelTool[]): void {
    const byEntry = new Map<string, string[]>();
    for (const tool of tools)
      if (tool.entry !== null && tool.tool !== null)
        byEntry.set(tool.entry, [...(byEntry.get(tool.entry) ?? []), tool.tool]);
    for (const [entry, names] of byEntry) this.world.disclose(entry, names, this.driver.results.length + 1);
  }

  /** Posts the pending call step's result from the request's messages; records what it carried. */
  #takeResult(api: ModelApi, messages: readonly unknown[]): ModelRequest['toolResult'] {
    const pending = this.#pending;
    if (pending === null) return null;
    this.#pending = null;
    const found = findResult(api, messages, pending.id);
    if (found === null) {
      this.driver.post({
        seq: pending.seq,
        status: 'refused',
        detail: `no tool result for ${pending.id} in the next model request`,
      });
      return null;
    }
    this.driver.post({ seq: pending.seq, status: found.isError ? 'error' : 'ok', detail: found.text.slice(0, 200) });
    return { seq: pending.seq, isError: found.isError, text: found.text.slice(0, 200) };
  }
}

/** Maps a host's tool name to (entry, MCP tool) by the documented rule, or to nulls. */
export function mapName(
  name: string,
  spec: BlackBoxCase,
  world: CaseWorld,
): { entry: string | null; tool: string | null } {
  const entries = world.entries().sort((a, b) => b.name.length - a.name.length);
  const served = (entry: string): readonly string[] => {
    const server = world.entries().find((candidate) => candidate.name === entry)?.server;
    return spec.servers.find((candidate) => candidate.name === server)?.revisions.flat() ?? [];
  };
  for (const entry of entries) {
    for (const written of new Set([entry.name, sanitized(entry.name)])) {
      const at = name.indexOf(`${written}__`);
      if (at < 0 || (at > 0 && name[at - 1] !== '_')) continue;
      const tool = name.slice(at + written.length + 2);
      if (tool === '') continue;
      // A host that rewrites names (the Codex CLI: `bad name` -> `bad_name`) is read back when one served name fits.
      const rewritten = [...new Set(served(entry.name).filter((candidate) => sanitized(candidate) === tool))];
      return {
        entry: entry.name,
        tool: served(entry.name).includes(tool) || rewritten.length !== 1 ? tool : (rewritten[0] as string),
      };
    }
  }
  const owners = entries.filter((entry) => served(entry.name).includes(name));
  return owners.length === 1
    ? { entry: (owners[0] as { name: string }).name, tool: name }
    : { entry: null, tool: null };
}

/**
 * The call of a tool the request does not show, named as the host names its shown `sibling` of the
 * same entry: its name with the tool part replaced (and its Responses namespace kept).
 */
function guessedCall(
  sibling: ModelTool,
  call: { readonly name: string; readonly namespace?: string } | undefined,
  tool: string,
): { hostName: string; name: string; namespace?: string } {
  const part = [sibling.tool as string, sanitized(sibling.tool as string)].find((p) => sibling.name.endsWith(p)) ?? '';
  const hostName = `${sibling.name.slice(0, sibling.name.length - part.length)}${tool}`;
  if (call?.namespace !== undefined) return { hostName, name: tool, namespace: call.namespace };
  return { hostName, name: hostName };
}

/** Whether a name the rule left unmapped ends in `__` and a tool name of the case (as written or rewritten). */
function endsWithServedName(name: string, spec: BlackBoxCase): boolean {
  return spec.servers.some((server) =>
    server.revisions.flat().some((tool) => name.endsWith(`__${tool}`) || name.endsWith(`__${sanitized(tool)}`)),
  );
}

/** A name with every character outside `[A-Za-z0-9_]` replaced by `_` (how the Codex CLI writes server and tool names). */
function sanitized(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

function findResult(
  api: ModelApi,
  messages: readonly unknown[],
  id: string,
): { isError: boolean; text: string } | null {
  for (const message of messages) {
    const m = message as { role?: unknown; tool_call_id?: unknown; content?: unknown } | null;
    if (api === 'openai.responses') {
      const item = message as { type?: unknown; call_id?: unknown; output?: unknown } | null;
      if (item?.type === 'function_call_output' && item.call_id === id)
        return { isError: false, text: textOf(item.output) };
      continue;
    }
    if (api === 'openai.chat') {
      if (m?.role === 'tool' && m.tool_call_id === id) return { isError: false, text: textOf(m.content) };
      continue;
    }
    if (m?.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const block of m.content as { type?: unknown; tool_use_id?: unknown; is_error?: unknown; content?: unknown }[])
      if (block?.type === 'tool_result' && block.tool_use_id === id)
        return { isError: block.is_error === true, text: textOf(block.content) };
  }
  return null;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

/** A Responses request's `input` as items: a string is one user message; anything else but an array is undefined. */
function inputItems(input: unknown): unknown[] | undefined {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorBody(api: ModelApi, status: number, message: string): unknown {
  if (api !== 'anthropic.messages')
    return {
      error: { message, type: status === 404 ? 'not_found_error' : 'invalid_request_error', param: null, code: null },
    };
  return { type: 'error', error: { type: status === 404 ? 'not_found_error' : 'invalid_request_error', message } };
}

function textBody(api: ModelApi, model: string, n: number, text: string): unknown {
  if (api === 'openai.responses')
    return responseBody(n, model, [
      {
        type: 'message',
        id: `msg_catsim_${n}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ]);
  if (api === 'openai.chat')
    return {
      id: `chatcmpl-catsim-${n}`,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, refusal: null },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    };
  return {
    id: `msg_catsim_${n}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}

function callBody(
  api: ModelApi,
  model: string,
  n: number,
  id: string,
  call: { readonly name: string; readonly namespace?: string },
  args: Record<string, unknown>,
): unknown {
  const { name } = call;
  if (api === 'openai.responses')
    return responseBody(n, model, [
      {
        type: 'function_call',
        id: `fc_catsim_${n}`,
        call_id: id,
        ...(call.namespace === undefined ? {} : { namespace: call.namespace }),
        name,
        arguments: JSON.stringify(args),
        status: 'completed',
      },
    ]);
  if (api === 'openai.chat')
    return {
      id: `chatcmpl-catsim-${n}`,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
          },
          finish_reason: 'tool_calls',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    };
  return {
    id: `msg_catsim_${n}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'tool_use', id, name, input: args }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}

/** A Responses API `response` object, completed, with its output items. */
function responseBody(n: number, model: string, output: unknown[]): unknown {
  return {
    id: `resp_catsim_${n}`,
    object: 'response',
    created_at: 0,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    model,
    output,
    parallel_tool_calls: false,
    tool_choice: 'auto',
    tools: [],
    usage: {
      input_tokens: 0,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 0,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 0,
    },
  };
}

/**
 * The server-sent events of a streamed answer: the same answer as `body` (a `callBody` or
 * `textBody`), in one content chunk. OpenAI: `chat.completion.chunk` data lines (the delta, then
 * the finish reason), then `data: [DONE]`. Anthropic: `message_start`, `content_block_start`,
 * one `content_block_delta` (`text_delta` or `input_json_delta`), `content_block_stop`,
 * `message_delta` (stop reason), `message_stop`. OpenAI Responses: see {@link responseEvents}.
 */
export function eventStream(api: ModelApi, body: unknown): string {
  const data = (value: unknown, event?: string): string =>
    `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(value)}\n\n`;
  if (api === 'openai.responses') return responseEvents(body as ResponseBody);
  if (api === 'openai.chat') {
    const answer = body as {
      id: string;
      model: string;
      choices: [
        { message: { content: string | null; tool_calls?: { id: string; function: object }[] }; finish_reason: string },
      ];
    };
    const { message, finish_reason } = answer.choices[0];
    const chunk = (delta: unknown, finish: string | null): unknown => ({
      id: answer.id,
      object: 'chat.completion.chunk',
      created: 0,
      model: answer.model,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
    const delta =
      message.tool_calls === undefined
        ? { role: 'assistant', content: message.content }
        : {
            role: 'assistant',
            content: null,
            tool_calls: message.tool_calls.map((call, index) => ({
              index,
              id: call.id,
              type: 'function',
              function: call.function,
            })),
          };
    return `${data(chunk(delta, null))}${data(chunk({}, finish_reason))}data: [DONE]\n\n`;
  }
  const answer = body as {
    content: [{ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown }];
    stop_reason: string;
  };
  const block = answer.content[0];
  return [
    data({ type: 'message_start', message: { ...answer, content: [], stop_reason: null } }, 'message_start'),
    data(
      {
        type: 'content_block_start',
        index: 0,
        content_block: block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} },
      },
      'content_block_start',
    ),
    data(
      {
        type: 'content_block_delta',
        index: 0,
        delta:
          block.type === 'text'
            ? { type: 'text_delta', text: block.text }
            : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      },
      'content_block_delta',
    ),
    data({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    data(
      {
        type: 'message_delta',
        delta: { stop_reason: answer.stop_reason, stop_sequence: null },
        usage: { output_tokens: 0 },
      },
      'message_delta',
    ),
    data({ type: 'message_stop' }, 'message_stop'),
  ].join('');
}

/** The shape of a {@link responseBody} as {@link responseEvents} reads it. */
interface ResponseBody {
  readonly output: [
    | { type: 'function_call'; id: string; name: string; arguments: string }
    | { type: 'message'; id: string; content: [{ type: 'output_text'; text: string }] },
  ];
}

/**
 * The Responses API event sequence of one answer, each `event: TYPE` with a `sequence_number`
 * from 0: `response.created`, `response.in_progress` (the response in progress, no output), then
 * `response.output_item.added` (the item in progress), for a function call
 * `response.function_call_arguments.delta` (all arguments) and `.done`, for text
 * `response.content_part.added`, `response.output_text.delta` (all text), `response.output_text.done`,
 * `response.content_part.done`; then `response.output_item.done` (the item) and
 * `response.completed` (the whole response, as the unstreamed answer).
 */
function responseEvents(body: ResponseBody): string {
  const events: { type: string; [field: string]: unknown }[] = [];
  const pending = { ...(body as object), status: 'in_progress', output: [] };
  events.push({ type: 'response.created', response: pending }, { type: 'response.in_progress', response: pending });
  const item = body.output[0];
  const at = { item_id: item.id, output_index: 0 };
  if (item.type === 'function_call') {
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } },
      { type: 'response.function_call_arguments.delta', ...at, delta: item.arguments },
      { type: 'response.function_call_arguments.done', ...at, name: item.name, arguments: item.arguments },
    );
  } else {
    const text = item.content[0].text;
    const part = (value: string): unknown => ({ type: 'output_text', text: value, annotations: [] });
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [], status: 'in_progress' } },
      { type: 'response.content_part.added', ...at, content_index: 0, part: part('') },
      { type: 'response.output_text.delta', ...at, content_index: 0, delta: text, logprobs: [] },
      { type: 'response.output_text.done', ...at, content_index: 0, text, logprobs: [] },
      { type: 'response.content_part.done', ...at, content_index: 0, part: part(text) },
    );
  }
  events.push(
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: body },
  );
  return events
    .map(
      ({ type, ...rest }, index) =>
        `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: index, ...rest })}\n\n`,
    )
    .join('');
}
