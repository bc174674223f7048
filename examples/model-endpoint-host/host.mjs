#!/usr/bin/env node
// A small LLM agent host with no catsim adapter (docs/BLACK-BOX.md, "LLM hosts"): configured only
// with its MCP servers (CATSIM_SERVERS) and its model's base URL (CATSIM_MODEL_URL). It connects to
// every server over Streamable HTTP, walks every page of tools/list, shows its model each tool as
// `<server>__<tool>` through OpenAI Chat Completions, runs the tool calls the model asks for and
// sends their results back, until the model answers with plain text. Run it under
// `catsim host-test --model-endpoint --transport http -- node host.mjs`.
// Bad hosts, for catsim's own tests: `--show-ghost` also shows the model a tool no server served;
// `--malformed` sends its model request without `messages`; `--no-model` exits 0 after its walk
// without calling the model; `--abandon MS` streams its model request and closes it MS ms later,
// whether or not an answer came.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const servers = JSON.parse(process.env.CATSIM_SERVERS ?? '[]');
const modelUrl = process.env.CATSIM_MODEL_URL;
const ghost = process.argv.includes('--show-ghost');
const malformed = process.argv.includes('--malformed');
const noModel = process.argv.includes('--no-model');
const abandonAt = process.argv.indexOf('--abandon');
const abandonMs = abandonAt < 0 ? null : Number(process.argv[abandonAt + 1]);

const clients = new Map();
const tools = [];
for (const server of servers) {
  const client = new Client({ name: 'catsim-example-model-host', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.credentials.token}` } },
    }),
  );
  clients.set(server.name, client);
  const seen = new Set();
  let cursor;
  for (let page = 0; page < 50; page += 1) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor });
    for (const tool of result.tools)
      tools.push({
        type: 'function',
        function: {
          name: `${server.name}__${tool.name}`,
          description: tool.description ?? '',
          parameters: tool.inputSchema,
        },
      });
    if (result.nextCursor === undefined || seen.has(result.nextCursor)) break;
    seen.add(result.nextCursor);
    cursor = result.nextCursor;
  }
}
if (ghost && servers.length > 0)
  tools.push({ type: 'function', function: { name: `${servers[0].name}__ghost`, parameters: { type: 'object' } } });

if (noModel) process.exit(0);
if (abandonMs !== null) {
  const abort = new AbortController();
  setTimeout(() => abort.abort(), abandonMs);
  await fetch(`${modelUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'any', stream: true, messages: [{ role: 'user', content: 'go' }], tools }),
    signal: abort.signal,
  }).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 60_000));
}

const messages = [{ role: 'user', content: 'Do the task.' }];
for (let turn = 0; turn < 20; turn += 1) {
  const response = await fetch(`${modelUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(malformed ? { model: 'any', tools } : { model: 'any', messages, tools }),
  });
  if (!response.ok) throw new Error(`model answered ${response.status}: ${await response.text()}`);
  const message = (await response.json()).choices[0].message;
  messages.push(message);
  if (message.tool_calls === undefined) break;
  for (const call of message.tool_calls) {
    const [server, ...rest] = call.function.name.split('__');
    // A call the server refuses (a JSON-RPC error) goes back to the model as an error result.
    const content = await clients
      .get(server)
      .callTool({ name: rest.join('__'), arguments: JSON.parse(call.function.arguments) })
      .then((result) => {
        const text = result.content.map((part) => part.text ?? '').join('');
        return result.isError ? `error: ${text}` : text;
      })
      .catch((error) => `error: ${error.message}`);
    messages.push({ role: 'tool', tool_call_id: call.id, content });
  }
}
for (const client of clients.values()) await client.close();
