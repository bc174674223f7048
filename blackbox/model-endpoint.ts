/**
 * The scripted model endpoint of black-box mode (`--model-endpoint`, issue 34, first slice): catsim
 * answers on loopback as the host's model, for OpenAI Chat Completions (`POST /v1/chat/completions`)
 * and Anthropic Messages (`POST /v1/messages`), each with or without `stream: true` (a streamed
 * answer is the same answer as server-sent events, written at once). No key is asked for or kept.
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
 * unmapped and not judged. A `call` step of (entry, tool) is answered with the one name of the
 * request that maps to it; none or several ends the case HOST_FAILED with one line naming it.
 */
import { createHash } from 'node:crypto';
import type { BlackBoxCase } from './case.ts';
import type { CaseWorld } from './case-world.ts';
import type { Driver } from './driver.ts';

/** The API shapes built so far. */
export type ModelApi = 'openai.chat' | 'anthropic.messages';

/** The paths of the model endpoint and their API shapes. */
export const MODEL_PATHS: Readonly<Record<string, ModelApi>> = {
  '/v1/chat/completions': 'openai.chat',
  '/v1/messages': 'anthropic.messages',
};

/** One tool of a model request: the host's name, a digest of its item as sent, and what it maps to. */
export interface ModelTool {
  readonly name: string;
  /** sha256 (hex) of the JSON of the tools-array item as the host sent it. */
  readonly digest: string;
  /** The case entry and MCP tool name it maps to, or null (the host's own tool). */
  readonly entry: string | null;
  readonly tool: string | null;
}

/** One `model_request` record: a request to the model endpoint and what catsim answered. */
export interface ModelRequest {
  readonly type: 'model_request';
  /** 0-based, in arrival order. */
  readonly n: number;
  /** The API shape, or null for a path that is none. */
  readonly api: ModelApi | null;
  readonly method: string;
  readonly path: string;
  /** The HTTP status catsim answered. */
  readonly status: number;
  /** Whether the request asked for a streamed answer (`stream: true`); errors are never streamed. */
  readonly stream: boolean;
  readonly tools: ModelTool[];
  /** The tool result the request carried for the previous call step, if any. */
  readonly toolResult: { readonly seq: number; readonly isError: boolean; readonly text: string } | null;
  /** What catsim answered: a tool call (the host's name), plain text (end), or an error message. */
  readonly answer:
    | { readonly kind: 'tool_call'; readonly seq: number; readonly name: string }
    | { readonly kind: 'text'; readonly seq: number | null }
    | { readonly kind: 'error'; readonly message: string };
}

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
  #queue: Promise<unknown> = Promise.resolve();
  /** The call step answered last and its call id, until the host sends its result. */
  #pending: { seq: number; id: string } | null = null;

  constructor(
    private readonly spec: BlackBoxCase,
    private readonly world: CaseWorld,
    private readonly driver: Driver,
  ) {}

  /** Answers one request (path, method, raw body text); `signal` aborts a wait for a step when the case closes. */
  handle(method: string, path: string, text: string, signal: AbortSignal): Promise<ModelAnswer> {
    const next = this.#queue.then(() => this.#handle(method, path, text, signal));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #handle(method: string, path: string, text: string, signal: AbortSignal): Promise<ModelAnswer> {
    const api = method === 'POST' ? (MODEL_PATHS[path] ?? null) : null;
    const base = { type: 'model_request' as const, n: this.requests.length, api, method, path };
    let stream = false;
    const refuse = (status: number, message: string, tools: ModelTool[] = []): ModelAnswer => {
      this.requests.push({ ...base, status, stream, tools, toolResult: null, answer: { kind: 'error', message } });
      return {
        status,
        body: errorBody(api ?? (path.endsWith('/messages') ? 'anthropic.messages' : 'openai.chat'), status, message),
      };
    };
    if (api === null)
      return refuse(
        404,
        `catsim: no model route ${method} ${path} (built: POST ${Object.keys(MODEL_PATHS).join(', POST ')})`,
      );
    const body = parseJson(text);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return refuse(400, 'catsim: the request body is not a JSON object');
    const request = body as Record<string, unknown>;
    stream = request.stream === true;
    if (!Array.isArray(request.messages)) return refuse(400, 'catsim: the request has no messages array');
    const tools = this.#tools(api, request.tools);
    if (typeof tools === 'string') return refuse(400, tools);
    const toolResult = this.#takeResult(api, request.messages as unknown[]);
    const ok = (answer: ModelRequest['answer'], body: unknown): ModelAnswer => {
      this.requests.push({ ...base, status: 200, stream, tools, toolResult, answer });
      return stream ? { status: 200, body, sse: eventStream(api, body) } : { status: 200, body };
    };
    const n = base.n + 1;
    this.#disclose(tools);
    const model = typeof request.model === 'string' ? request.model : 'catsim';
    for (;;) {
      const seq = this.driver.results.length + 1;
      if (this.driver.ended || seq > this.spec.steps.length) {
        return ok({ kind: 'text', seq: null }, textBody(api, model, n, 'catsim: the case has ended'));
      }
      const step = await this.driver.step(seq, STEP_POLL_MS, signal);
      if (step === null) {
        if (signal.aborted) return refuse(503, 'catsim: the case closed while this request waited for its step', tools);
        continue;
      }
      if (step.kind === 'sleep') {
        await new Promise((resolve) => setTimeout(resolve, step.ms));
        this.driver.post({ seq, status: 'ok' });
        continue;
      }
      if (step.kind === 'disclose') {
        this.driver.post({ seq, status: 'ok', tools: {}, detail: `disclosed by model request ${base.n}` });
        continue;
      }
      if (step.kind === 'end') {
        this.driver.post({ seq, status: 'ok' });
        return ok({ kind: 'text', seq }, textBody(api, model, n, 'catsim: the case is over'));
      }
      const names = tools.filter((tool) => tool.entry === step.server && tool.tool === step.tool).map((t) => t.name);
      if (names.length !== 1) {
        this.failure = `HOST_FAILED: step ${seq} calls ${step.server}/${step.tool} and model request ${base.n} ${names.length === 0 ? 'shows the model no tool that maps to it' : `shows several that map to it (${names.join(', ')})`} (docs/BLACK-BOX.md, LLM hosts: the name rule)`;
        this.driver.post({ seq, status: 'refused', detail: this.failure.slice(0, 200) });
        return refuse(400, this.failure, tools);
      }
      const name = names[0] as string;
      const id = `${api === 'openai.chat' ? 'call' : 'toolu'}_catsim_${seq}`;
      this.#pending = { seq, id };
      return ok({ kind: 'tool_call', seq, name }, callBody(api, model, n, id, name, step.arguments));
    }
  }

  /** The request's tools, mapped by the name rule, or a one-line problem. */
  #tools(api: ModelApi, raw: unknown): ModelTool[] | string {
    if (raw === undefined) return [];
    if (!Array.isArray(raw)) return 'catsim: tools must be an array';
    const out: ModelTool[] = [];
    for (const item of raw) {
      const name =
        api === 'openai.chat'
          ? (item as { function?: { name?: unknown } } | null)?.function?.name
          : (item as { name?: unknown } | null)?.name;
      if (typeof name !== 'string')
        return `catsim: every tool needs a name (${api === 'openai.chat' ? 'function.name' : 'name'})`;
      const digest = createHash('sha256').update(JSON.stringify(item)).digest('hex');
      out.push({ name, digest, ...mapName(name, this.spec, this.world) });
    }
    return out;
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
  for (const entry of entries) {
    const at = name.indexOf(`${entry.name}__`);
    if (at < 0) continue;
    if (at > 0 && name[at - 1] !== '_') continue;
    const tool = name.slice(at + entry.name.length + 2);
    if (tool !== '') return { entry: entry.name, tool };
  }
  const owners = entries.filter((entry) =>
    spec.servers.find((server) => server.name === entry.server)?.revisions.some((names) => names.includes(name)),
  );
  return owners.length === 1
    ? { entry: (owners[0] as { name: string }).name, tool: name }
    : { entry: null, tool: null };
}

function findResult(
  api: ModelApi,
  messages: readonly unknown[],
  id: string,
): { isError: boolean; text: string } | null {
  for (const message of messages) {
    const m = message as { role?: unknown; tool_call_id?: unknown; content?: unknown } | null;
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorBody(api: ModelApi, status: number, message: string): unknown {
  if (api === 'openai.chat')
    return {
      error: { message, type: status === 404 ? 'not_found_error' : 'invalid_request_error', param: null, code: null },
    };
  return { type: 'error', error: { type: status === 404 ? 'not_found_error' : 'invalid_request_error', message } };
}

function textBody(api: ModelApi, model: string, n: number, text: string): unknown {
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
  name: string,
  args: Record<string, unknown>,
): unknown {
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

/**
 * The server-sent events of a streamed answer: the same answer as `body` (a `callBody` or
 * `textBody`), in one content chunk. OpenAI: `chat.completion.chunk` data lines (the delta, then
 * the finish reason), then `data: [DONE]`. Anthropic: `message_start`, `content_block_start`,
 * one `content_block_delta` (`text_delta` or `input_json_delta`), `content_block_stop`,
 * `message_delta` (stop reason), `message_stop`.
 */
export function eventStream(api: ModelApi, body: unknown): string {
  const data = (value: unknown, event?: string): string =>
    `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(value)}\n\n`;
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
