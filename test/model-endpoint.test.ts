/**
 * The scripted model endpoint (issue 34, first slice): the real `openai` SDK client and plain
 * fetch (Anthropic Messages) against `/v1/*` of a hosted case, a host configured only with its
 * servers and the model base URL run end to end (OK on full-walk; FAILED when it shows its model a
 * tool no server served), and bad input answered with one API-shaped error and recorded.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { type BlackBoxCase, loadCases } from '../blackbox/case.ts';
import { CaseWorld } from '../blackbox/case-world.ts';
import { Driver } from '../blackbox/driver.ts';
import { Hosting } from '../blackbox/hosting.ts';
import { mapName, ModelEndpoint } from '../blackbox/model-endpoint.ts';
import { finishCase, modelUrl, runCase, serversEnv } from '../blackbox/run-case.ts';
import { readTraceFile } from '../cli/trace-file.ts';
import { judgeHostWire } from '../oracle/host-wire.ts';
import { traceText } from '../sim/trace/recorder.ts';
import { startServe } from './support/serve.ts';

const ROOT = join(import.meta.dirname, '..');
const MODEL_HOST = [process.execPath, join(ROOT, 'examples/model-endpoint-host/host.mjs')];
const fullWalk = (): BlackBoxCase => loadCases('full-walk')[0] as BlackBoxCase;
const schema = JSON.parse(readFileSync(join(ROOT, 'contract', 'driver', 'driver.schema.json'), 'utf8')) as {
  $id: string;
};
const ajv = new Ajv2020({ strict: false });
ajv.addSchema(schema);
/** The records that do not hold to the driver contract's ModelRequest (their n), so [] when all do. */
const offContract = (records: readonly { n: number }[]): number[] =>
  records.filter((record) => !ajv.validate(`${schema.$id}#/$defs/ModelRequest`, record)).map((record) => record.n);
const FULL_WALK_TOOLS = ['search', 'fetch', 'summarize', 'translate', 'classify', 'extract', 'archive'];

/** A hosted full-walk case with its model endpoint and one MCP session of alpha that walked every page (the host's part). */
async function hosted(): Promise<{
  spec: BlackBoxCase;
  world: CaseWorld;
  driver: Driver;
  model: ModelEndpoint;
  hosting: Hosting;
  base: string;
  client: Client;
}> {
  const spec = fullWalk();
  const world = new CaseWorld(spec, 'test');
  world.start();
  const driver = new Driver(spec, world);
  const model = new ModelEndpoint(spec, world, driver);
  const hosting = await Hosting.start(world, driver, undefined, model);
  const [alpha] = serversEnv(world, hosting.ports(), 'http') as { url: string; credentials: { token: string } }[];
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(alpha?.url as string), {
      requestInit: { headers: { Authorization: `Bearer ${alpha?.credentials.token}` } },
    }),
  );
  let cursor: string | undefined;
  do cursor = (await client.listTools(cursor === undefined ? {} : { cursor })).nextCursor;
  while (cursor !== undefined);
  return { spec, world, driver, model, hosting, base: modelUrl(hosting.ports().http), client };
}

describe('model endpoint: OpenAI Chat Completions through the openai SDK', () => {
  it('answers the disclose and call steps with one tool call, takes the tool result, and ends with text', async () => {
    const { spec, world, driver, model, hosting, base, client } = await hosted();
    const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'unused', maxRetries: 0 });
    const tools = FULL_WALK_TOOLS.map((name) => ({
      type: 'function' as const,
      function: { name: `mcp__alpha__${name}`, parameters: { type: 'object' } },
    }));
    const first = await openai.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'go' }],
      tools,
    });
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(first.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_catsim_2', type: 'function', function: { name: 'mcp__alpha__archive', arguments: '{"text":"x"}' } },
    ]);
    const second = await openai.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'user', content: 'go' },
        first.choices[0]?.message as OpenAI.ChatCompletionMessageParam,
        { role: 'tool', tool_call_id: 'call_catsim_2', content: 'archived' },
      ],
      tools,
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content).toBe('catsim: the case is over');
    expect(driver.results).toEqual([
      { seq: 1, status: 'ok', tools: {}, detail: 'disclosed by model request 0' },
      { seq: 2, status: 'ok', detail: 'archived' },
      { seq: 3, status: 'ok' },
    ]);
    expect(
      model.requests.map((r) => [r.api, r.status, r.answer.kind, r.tools.length, r.toolResult?.text ?? null]),
    ).toEqual([
      ['openai.chat', 200, 'tool_call', 7, null],
      ['openai.chat', 200, 'text', 7, 'archived'],
    ]);
    expect(offContract(model.requests)).toEqual([]);
    expect(model.requests[0]?.tools[6]).toMatchObject({ name: 'mcp__alpha__archive', entry: 'alpha', tool: 'archive' });
    await client.close();
    await hosting.close();
    const run = finishCase(spec, world, driver, 'http', null, '', null, model);
    expect([run.outcome, run.line]).toEqual(['OK', 'full-walk: no violation']);
    expect(run.events.filter((e) => e.type === 'disclosure').length).toBe(2);
  });
});

describe('model endpoint: Anthropic Messages through fetch', () => {
  it('answers with tool_use, takes the tool_result (is_error kept), and ends with end_turn', async () => {
    const { spec, world, driver, model, hosting, base, client } = await hosted();
    const tools = FULL_WALK_TOOLS.map((name) => ({ name: `alpha__${name}`, input_schema: { type: 'object' } }));
    const post = async (messages: unknown[]): Promise<{ status: number; body: Record<string, unknown> }> => {
      const response = await fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'm', max_tokens: 100, messages, tools }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const first = await post([{ role: 'user', content: 'go' }]);
    expect(first).toEqual({
      status: 200,
      body: {
        id: 'msg_catsim_1',
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [{ type: 'tool_use', id: 'toolu_catsim_2', name: 'alpha__archive', input: { text: 'x' } }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    });
    const second = await post([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: first.body.content },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_catsim_2',
            is_error: true,
            content: [{ type: 'text', text: 'no' }],
          },
        ],
      },
    ]);
    expect([second.status, second.body.stop_reason, second.body.content]).toEqual([
      200,
      'end_turn',
      [{ type: 'text', text: 'catsim: the case is over' }],
    ]);
    expect(driver.results[1]).toEqual({ seq: 2, status: 'error', detail: 'no' });
    expect(model.requests[1]?.toolResult).toEqual({ seq: 2, isError: true, text: 'no' });
    expect(offContract(model.requests)).toEqual([]);
    expect(ajv.validate(`${schema.$id}#/$defs/ModelRequest`, { ...model.requests[0], api: 'openai.other' })).toBe(
      false,
    );
    await client.close();
    await hosting.close();
    expect(finishCase(spec, world, driver, 'http', null, '', null, model).outcome).toBe('OK');
  });

  it('ends the case HOST_FAILED with one line when several tools of the request map to the call step', async () => {
    const { hosting, base, model, client } = await hosted();
    const schema = { type: 'object' };
    const response = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'm',
        messages: [],
        tools: [
          { name: 'alpha__archive', input_schema: schema },
          { name: 'mcp__alpha__archive', input_schema: schema },
        ],
      }),
    });
    const line =
      'HOST_FAILED: step 2 calls alpha/archive and model request 0 shows several tools that map to it (alpha__archive, mcp__alpha__archive) (docs/BLACK-BOX.md, LLM hosts: the name rule)';
    expect([response.status, await response.json()]).toEqual([
      400,
      { type: 'error', error: { type: 'invalid_request_error', message: line } },
    ]);
    expect(model.failure).toBe(line);
    await client.close();
    await hosting.close();
  });

  it('calls a tool the request does not show by the host naming of its server (a guessed name); with nothing of that server shown, refuses the step and goes on', async () => {
    const { hosting, base, model, driver, client } = await hosted();
    const post = async (tools: unknown[]): Promise<unknown> => {
      const response = await fetch(`${base}/v1/messages`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [], tools }),
      });
      return (await response.json()) as unknown;
    };
    const schema = { type: 'object' };
    expect(
      ((await post([{ name: 'mcp__alpha__search', input_schema: schema }])) as { content: unknown[] }).content,
    ).toEqual([{ type: 'tool_use', id: 'toolu_catsim_2', name: 'mcp__alpha__archive', input: { text: 'x' } }]);
    expect(model.requests[0]?.answer).toEqual({
      kind: 'tool_call',
      seq: 2,
      name: 'mcp__alpha__archive',
      message: null,
    });
    expect(driver.results.map((r) => r.status)).toEqual(['ok']);

    const other = await hosted();
    const answer = (await fetch(`${other.base}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [], tools: [{ name: 'Bash', input_schema: schema }] }),
    }).then((r) => r.json())) as { stop_reason: string };
    expect(answer.stop_reason).toBe('end_turn');
    expect(other.driver.results).toEqual([
      { seq: 1, status: 'ok', tools: {}, detail: 'disclosed by model request 0' },
      {
        seq: 2,
        status: 'refused',
        detail: 'model request 0 shows the model no tool of alpha (the host left that server out)',
      },
      { seq: 3, status: 'ok' },
    ]);
    expect(other.model.failure).toBe(null);
    for (const h of [client, other.client]) await h.close();
    for (const h of [hosting, other.hosting]) await h.close();
  });
});

describe('model endpoint: streamed answers (stream: true)', () => {
  it('streams the tool call and the end through the openai SDK, the same answers as unstreamed', async () => {
    const { spec, world, driver, model, hosting, base, client } = await hosted();
    const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'unused', maxRetries: 0 });
    const tools = FULL_WALK_TOOLS.map((name) => ({
      type: 'function' as const,
      function: { name: `alpha__${name}`, parameters: { type: 'object' } },
    }));
    const chunks = async (messages: OpenAI.ChatCompletionMessageParam[]): Promise<unknown[]> => {
      const out: unknown[] = [];
      for await (const chunk of await openai.chat.completions.create({ model: 'm', messages, tools, stream: true }))
        out.push(chunk.choices[0]);
      return out;
    };
    expect(await chunks([{ role: 'user', content: 'go' }])).toEqual([
      {
        index: 0,
        delta: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              index: 0,
              id: 'call_catsim_2',
              type: 'function',
              function: { name: 'alpha__archive', arguments: '{"text":"x"}' },
            },
          ],
        },
        finish_reason: null,
        logprobs: null,
      },
      { index: 0, delta: {}, finish_reason: 'tool_calls', logprobs: null },
    ]);
    expect(
      await chunks([
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_catsim_2', type: 'function', function: { name: 'alpha__archive', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_catsim_2', content: 'archived' },
      ]),
    ).toEqual([
      {
        index: 0,
        delta: { role: 'assistant', content: 'catsim: the case is over' },
        finish_reason: null,
        logprobs: null,
      },
      { index: 0, delta: {}, finish_reason: 'stop', logprobs: null },
    ]);
    expect(model.requests.map((r) => [r.stream, r.answer.kind])).toEqual([
      [true, 'tool_call'],
      [true, 'text'],
    ]);
    expect(offContract(model.requests)).toEqual([]);
    await client.close();
    await hosting.close();
    expect(finishCase(spec, world, driver, 'http', null, '', null, model).outcome).toBe('OK');
  });

  it('streams Anthropic Messages events: message_start, one content block, message_delta, message_stop', async () => {
    const { hosting, base, client } = await hosted();
    const response = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'm',
        stream: true,
        messages: [{ role: 'user', content: 'go' }],
        tools: [{ name: 'alpha__archive', input_schema: { type: 'object' } }],
      }),
    });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block !== '')
      .map((block) => {
        const [event, data] = block.split('\n');
        return [event, JSON.parse((data as string).slice('data: '.length))];
      });
    const usage = { input_tokens: 0, output_tokens: 0 };
    expect(events).toEqual([
      [
        'event: message_start',
        {
          type: 'message_start',
          message: {
            id: 'msg_catsim_1',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage,
          },
        },
      ],
      [
        'event: content_block_start',
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'toolu_catsim_2', name: 'alpha__archive', input: {} },
        },
      ],
      [
        'event: content_block_delta',
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"text":"x"}' } },
      ],
      ['event: content_block_stop', { type: 'content_block_stop', index: 0 }],
      [
        'event: message_delta',
        { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 0 } },
      ],
      ['event: message_stop', { type: 'message_stop' }],
    ]);
    await client.close();
    await hosting.close();
  });
});

describe('model endpoint: OpenAI Responses through the openai SDK', () => {
  const responsesTools = (): OpenAI.Responses.Tool[] => [
    { type: 'function', name: 'shell', parameters: { type: 'object' }, strict: false },
    {
      type: 'namespace',
      name: 'mcp__alpha',
      description: 'alpha',
      tools: FULL_WALK_TOOLS.map((name) => ({ type: 'function' as const, name, parameters: { type: 'object' } })),
    } as unknown as OpenAI.Responses.Tool,
    { type: 'web_search' } as OpenAI.Responses.Tool,
  ];

  it('answers responses.create with a function_call item (namespace kept), takes the function_call_output, and ends with an output_text message', async () => {
    const { spec, world, driver, model, hosting, base, client } = await hosted();
    const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'unused', maxRetries: 0 });
    const tools = responsesTools();
    const first = await openai.responses.create({ model: 'm', input: 'go', tools });
    expect([first.id, first.status, first.output]).toEqual([
      'resp_catsim_1',
      'completed',
      [
        {
          type: 'function_call',
          id: 'fc_catsim_1',
          call_id: 'call_catsim_2',
          namespace: 'mcp__alpha',
          name: 'archive',
          arguments: '{"text":"x"}',
          status: 'completed',
        },
      ],
    ]);
    const second = await openai.responses.create({
      model: 'm',
      input: [
        { role: 'user', content: 'go' },
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'call_catsim_2', output: 'archived' },
      ],
      tools,
    });
    expect([second.output_text, second.status]).toEqual(['catsim: the case is over', 'completed']);
    expect(driver.results[1]).toEqual({ seq: 2, status: 'ok', detail: 'archived' });
    expect(model.requests.map((r) => [r.api, r.stream, r.answer, r.toolResult])).toEqual([
      ['openai.responses', false, { kind: 'tool_call', seq: 2, name: 'mcp__alpha__archive', message: null }, null],
      [
        'openai.responses',
        false,
        { kind: 'text', seq: 3, name: null, message: null },
        { seq: 2, isError: false, text: 'archived' },
      ],
    ]);
    expect(model.requests[0]?.tools.map((t) => [t.name, t.entry, t.tool])).toEqual([
      ['shell', null, null],
      ...FULL_WALK_TOOLS.map((name) => [`mcp__alpha__${name}`, 'alpha', name]),
      ['<web_search>', null, null],
    ]);
    expect(offContract(model.requests)).toEqual([]);
    await client.close();
    await hosting.close();
    expect(finishCase(spec, world, driver, 'http', null, '', null, model).line).toBe('full-walk: no violation');
  });

  it('streams (responses.stream and stream: true): the SSE event sequence the SDK folds into the same response', async () => {
    const { spec, world, driver, model, hosting, base, client } = await hosted();
    const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'unused', maxRetries: 0 });
    const tools = responsesTools();
    const types: string[] = [];
    const stream = openai.responses.stream({ model: 'm', input: 'go', tools });
    for await (const event of stream) types.push(`${event.sequence_number} ${event.type}`);
    const first = await stream.finalResponse();
    expect(types).toEqual([
      '0 response.created',
      '1 response.in_progress',
      '2 response.output_item.added',
      '3 response.function_call_arguments.delta',
      '4 response.function_call_arguments.done',
      '5 response.output_item.done',
      '6 response.completed',
    ]);
    expect(first.output).toEqual([
      {
        type: 'function_call',
        id: 'fc_catsim_1',
        call_id: 'call_catsim_2',
        namespace: 'mcp__alpha',
        name: 'archive',
        arguments: '{"text":"x"}',
        status: 'completed',
        // Added by the SDK's parsing of a finished stream, not sent by catsim.
        parsed_arguments: null,
      },
    ]);
    const texts: string[] = [];
    for await (const event of await openai.responses.create({
      model: 'm',
      stream: true,
      input: [
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'function_call_output', call_id: 'call_catsim_2', output: [{ type: 'input_text', text: 'done' }] },
      ],
      tools,
    }))
      texts.push(event.type === 'response.output_text.delta' ? event.delta : event.type);
    expect(texts).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'catsim: the case is over',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(driver.results[1]).toEqual({ seq: 2, status: 'ok', detail: 'done' });
    expect(model.requests.map((r) => [r.stream, r.answer.kind])).toEqual([
      [true, 'tool_call'],
      [true, 'text'],
    ]);
    await client.close();
    await hosting.close();
    expect(finishCase(spec, world, driver, 'http', null, '', null, model).outcome).toBe('OK');
  });

  it('refuses a Responses request without input as malformed', async () => {
    const { hosting, base, model, client } = await hosted();
    const response = await fetch(`${base}/v1/responses`, { method: 'POST', body: JSON.stringify({ model: 'm' }) });
    expect([response.status, await response.json()]).toEqual([
      400,
      {
        error: {
          message:
            'HOST_FAILED: model request 0 (POST /v1/responses) is malformed: it has no input (a string or an array)',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    ]);
    expect(model.failure).toBe(
      'HOST_FAILED: model request 0 (POST /v1/responses) is malformed: it has no input (a string or an array)',
    );
    await client.close();
    await hosting.close();
  });
});

describe('model endpoint: model_request events in the catsim.trace.v1 trace', () => {
  it('writes every model request into the trace, and catsim judge re-judges the saved trace to the same verdict', async () => {
    const run = await runCase(fullWalk(), 'model-host', 'http', [...MODEL_HOST, '--show-ghost'], {
      modelEndpoint: true,
    });
    const path = join(mkdtempSync(join(tmpdir(), 'catsim-model-trace-')), 'full-walk.trace.jsonl');
    writeFileSync(path, traceText(run.header, run.events));
    const trace = readTraceFile(path);
    const events = trace.events.filter((e) => e.type === 'model_request');
    expect(events.map(({ seq: _seq, t: _t, src: _src, ...rest }) => rest)).toEqual(run.modelRequests);
    expect(events.map((e) => e.src)).toEqual(['world', 'world']);
    // Each request's disclosure was written at its arrival, before the request's own event.
    const firstDisclosure = trace.events.find((e) => e.type === 'disclosure');
    expect((firstDisclosure?.seq ?? Infinity) < (events[0]?.seq ?? -1)).toBe(true);
    const verdict = judgeHostWire(trace);
    expect([verdict.outcome, verdict.violations.map((v) => [v.code, v.seq])]).toEqual([
      run.outcome,
      run.violations.map((v) => [v.code, v.seq]),
    ]);
    expect(run.outcome).toBe('FAILED');
  });
});

describe('model endpoint: bad input', () => {
  it('answers a malformed body, a body without messages (asking for a stream) and an unknown path with one API-shaped error each, all recorded; the first malformed one is the failure', async () => {
    const { hosting, base, model, driver, client } = await hosted();
    const malformed = await fetch(`${base}/v1/chat/completions`, { method: 'POST', body: '{"model":' });
    const streamed = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true }),
    });
    const unknown = await fetch(`${base}/v1/models`, { method: 'GET' });
    const first =
      'HOST_FAILED: model request 0 (POST /v1/chat/completions) is malformed: the body is not a JSON object';
    expect([malformed.status, await malformed.json()]).toEqual([
      400,
      { error: { message: first, type: 'invalid_request_error', param: null, code: null } },
    ]);
    expect([streamed.status, await streamed.json()]).toEqual([
      400,
      {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'HOST_FAILED: model request 1 (POST /v1/messages) is malformed: it has no messages array',
        },
      },
    ]);
    expect([unknown.status, await unknown.json()]).toEqual([
      404,
      {
        error: {
          message:
            'catsim: no model route GET /v1/models (built: POST /v1/chat/completions, POST /v1/responses, POST /v1/messages)',
          type: 'not_found_error',
          param: null,
          code: null,
        },
      },
    ]);
    expect(model.requests.map((r) => [r.n, r.api, r.path, r.status, r.stream, r.answer.kind])).toEqual([
      [0, 'openai.chat', '/v1/chat/completions', 400, false, 'error'],
      [1, 'anthropic.messages', '/v1/messages', 400, true, 'error'],
      [2, null, '/v1/models', 404, false, 'error'],
    ]);
    expect(model.failure).toBe(first);
    expect(offContract(model.requests)).toEqual([]);
    expect(driver.results).toEqual([]);
    await client.close();
    await hosting.close();
  });

  it('ends the case HOST_FAILED with one line for a host whose model request is malformed', async () => {
    const run = await runCase(fullWalk(), 'model-host', 'http', [...MODEL_HOST, '--malformed'], {
      modelEndpoint: true,
    });
    expect([run.outcome, run.line]).toEqual([
      'HOST_FAILED',
      'full-walk: HOST_FAILED: model request 0 (POST /v1/chat/completions) is malformed: it has no messages array',
    ]);
  });

  it('ends the case HOST_FAILED with one line for a host that never calls the model', async () => {
    const run = await runCase(fullWalk(), 'model-host', 'http', [...MODEL_HOST, '--no-model'], {
      modelEndpoint: true,
    });
    expect([run.outcome, run.line, run.modelRequests]).toEqual([
      'HOST_FAILED',
      'full-walk: HOST_FAILED: the host never called the model endpoint (no request reached CATSIM_MODEL_URL); the host exited before the end step (0 of 3 steps done)',
      [],
    ]);
  });

  it('a host whose model request waits on a step that can never be released is cut by the stall window: UNDECIDED, not "never called the model"', async () => {
    const spec: BlackBoxCase = {
      ...fullWalk(),
      timeoutMs: 60_000,
      steps: [
        {
          kind: 'call',
          server: 'alpha',
          tool: 'search',
          arguments: {},
          after: { event: 'page_served', server: 'alpha', count: 99 },
        },
        { kind: 'end' },
      ],
    };
    const run = await runCase(spec, 'model-host', 'http', MODEL_HOST, { modelEndpoint: true, stallMs: 500 });
    expect([run.outcome, run.hostFailure, run.modelRequests?.map((r) => [r.status, r.answer.kind])]).toEqual([
      'UNDECIDED',
      null,
      [[503, 'error']],
    ]);
    expect(run.line).toBe(
      "full-walk: step 1 waited for 99 page_served of alpha and the record holds 3, and the host sent nothing to the case's servers for 500 ms (the stall window) while its model request waited on that step, so the case could not go on (its process group was killed)",
    );
  }, 60_000);

  it('ends the case HOST_FAILED with one line, at once, for a host that abandons its stream before the answer', async () => {
    // Step 1 waits for a page the host never asks for, so the streamed request is pending when the host closes it.
    const spec: BlackBoxCase = {
      ...fullWalk(),
      timeoutMs: 60_000,
      steps: [
        {
          kind: 'call',
          server: 'alpha',
          tool: 'search',
          arguments: {},
          after: { event: 'page_served', server: 'alpha', count: 99 },
        },
        { kind: 'end' },
      ],
    };
    const run = await runCase(spec, 'model-host', 'http', [...MODEL_HOST, '--abandon', '300'], {
      modelEndpoint: true,
      stallMs: 0,
    });
    expect([run.outcome, run.line]).toEqual([
      'HOST_FAILED',
      'full-walk: HOST_FAILED: model request 0 (POST /v1/chat/completions): the host closed it before catsim answered (it abandoned the stream while step 1 was due)',
    ]);
    expect(run.modelRequests?.map((r) => [r.status, r.stream, r.answer.kind])).toEqual([[499, true, 'error']]);
  }, 60_000);
});

describe('model endpoint: the name rule', () => {
  it('maps prefixed names by entry, bare names by the one server holding them, and leaves the rest unmapped', () => {
    const spec = fullWalk();
    const world = new CaseWorld(spec, 'test');
    expect(
      [
        'mcp__alpha__search',
        'alpha__ghost',
        'x_alpha__fetch',
        'archive',
        'Bash',
        'xalpha__fetch',
        'mcp__alpha__arch_ve',
      ].map((name) => mapName(name, spec, world)),
    ).toEqual([
      { entry: 'alpha', tool: 'search' },
      { entry: 'alpha', tool: 'ghost' },
      { entry: 'alpha', tool: 'fetch' },
      { entry: 'alpha', tool: 'archive' },
      { entry: null, tool: null },
      { entry: null, tool: null },
      { entry: 'alpha', tool: 'arch_ve' },
    ]);
  });

  it('reads back names the host rewrote (every character outside [A-Za-z0-9_] as _, as the Codex CLI writes them)', () => {
    const spec = loadCases('tenant-twins')[0] as BlackBoxCase;
    const world = new CaseWorld(spec, 'test');
    const defects = loadCases('planted-defects')[0] as BlackBoxCase;
    expect([
      mapName('mcp__alpha_globex__fetch', spec, world),
      mapName('mcp__alpha__fetch', spec, world),
      mapName('mcp__alpha__bad_name_x1', defects, new CaseWorld(defects, 'test')),
    ]).toEqual([
      { entry: 'alpha-globex', tool: 'fetch' },
      { entry: 'alpha', tool: 'fetch' },
      { entry: 'alpha', tool: 'bad name x1' },
    ]);
  });
});

describe('model endpoint: a host configured only with its servers and the model base URL', () => {
  it('runs full-walk end to end: OK', async () => {
    const run = await runCase(fullWalk(), 'model-host', 'http', MODEL_HOST, { modelEndpoint: true });
    expect([run.outcome, run.line, run.hostFailure]).toEqual(['OK', 'full-walk: no violation', null]);
    expect(run.modelRequests?.map((r) => [r.api, r.answer.kind, r.tools.length])).toEqual([
      ['openai.chat', 'tool_call', 7],
      ['openai.chat', 'text', 7],
    ]);
    expect(run.steps.map((s) => s.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('is FAILED when it shows its model a tool no server served', async () => {
    const run = await runCase(fullWalk(), 'model-host', 'http', [...MODEL_HOST, '--show-ghost'], {
      modelEndpoint: true,
    });
    expect([run.outcome, run.violations.map((v) => v.code)]).toEqual([
      'FAILED',
      ['DISCLOSED_NEVER_SERVED', 'DISCLOSED_NEVER_SERVED'],
    ]);
    // The oracle names a digest no page held by digest only; the model_request record has the name.
    expect(run.line).toBe(
      'full-walk: the host disclosed (never served, digest e7b2e7bb77f8) of alpha for acme.dev (seq 6), which no page served to that session held',
    );
    expect(run.modelRequests?.[0]?.tools[7]).toMatchObject({ name: 'alpha__ghost', entry: 'alpha', tool: 'ghost' });
  });
});

describe('model endpoint: a call step no tool of the request maps to', () => {
  it('is answered with the guessed name alpha__nope, which the host sends on to the server: FAILED, I9', async () => {
    const spec: BlackBoxCase = {
      ...fullWalk(),
      steps: [{ kind: 'call', server: 'alpha', tool: 'nope', arguments: {} }, { kind: 'end' }],
    };
    const run = await runCase(spec, 'model-host', 'http', MODEL_HOST, { modelEndpoint: true });
    expect([run.outcome, run.violations.map((v) => `${v.invariant} ${v.code}`)]).toEqual([
      'FAILED',
      ['I9 UNDISCLOSED_TOOL_SENT'],
    ]);
    expect(run.modelRequests?.[0]?.answer).toEqual({ kind: 'tool_call', seq: 1, name: 'alpha__nope', message: null });
  });
});

describe('catsim serve --model-endpoint', () => {
  it('prints CATSIM_MODEL_URL with the other three, serves the model host started with them, and reports its model requests', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'catsim-model-serve-')), 'out');
    const serve = await startServe(['--case', 'full-walk', '--model-endpoint', '--out', out]);
    const env = serve.env;
    expect(Object.keys(env)).toEqual(['CATSIM_SERVERS', 'CATSIM_DRIVER_URL', 'CATSIM_CASE', 'CATSIM_MODEL_URL']);
    expect(env.CATSIM_MODEL_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const host = spawnSync(MODEL_HOST[0] as string, MODEL_HOST.slice(1), {
      env: { ...process.env, CATSIM_SERVERS: env.CATSIM_SERVERS, CATSIM_MODEL_URL: env.CATSIM_MODEL_URL },
      timeout: 30_000,
    });
    expect(host.status, `${host.stderr}`).toBe(0);
    expect(await serve.exited()).toBe(0);
    expect(serve.stdout().split('\n').slice(-3)).toEqual(['OK full-walk: no violation', `reports in ${out}/`, '']);
    const report = JSON.parse(readFileSync(join(out, 'served', 'full-walk@http.json'), 'utf8')) as {
      rerun: string;
      modelRequests: { n: number; answer: { kind: string } }[];
    };
    expect(report.modelRequests.map((r) => r.answer.kind)).toEqual(['tool_call', 'text']);
    expect(offContract(report.modelRequests)).toEqual([]);
    expect(report.rerun).toBe('catsim serve --case full-walk --transport http --model-endpoint');
  }, 60_000);
});
