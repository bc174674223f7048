#!/usr/bin/env node
// A TypeScript/JavaScript MCP host on the SDK `Client`, in its own process, with its catsim
// black-box adapter (docs/BLACK-BOX.md). The host part: connect to every server in
// CATSIM_SERVERS (Streamable HTTP or stdio), walk every page of tools/list (stopping when a cursor
// comes round again), mark the catalog stale on notifications/tools/list_changed and walk it
// again before the next call or disclosure, and refuse a tool it was never shown. The adapter
// part: long-poll the driver's steps and post their results.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const PAGES_MAX = 50;
const driver = process.env.CATSIM_DRIVER_URL;
const servers = JSON.parse(process.env.CATSIM_SERVERS ?? '[]');

/** Walks every page; a walk cut by an error (a server restarted: its old cursor is -32602) starts again from page 1, up to 3 times. */
async function refresh(state) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await walk(state);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** One walk; stops at a repeated cursor or PAGES_MAX pages. */
async function walk(state) {
  // A list_changed that arrives during this walk must leave the catalog stale (first version of
  // this host cleared the flag at the end of the walk, and catsim's change-between-pages case
  // caught it: CALL_BEFORE_RELIST).
  const changes = state.changes;
  const tools = new Map();
  const seen = new Set();
  let cursor;
  for (let page = 0; page < PAGES_MAX; page += 1) {
    const result = await state.client.listTools(cursor === undefined ? {} : { cursor });
    for (const tool of result.tools) tools.set(tool.name, tool);
    if (result.nextCursor === undefined || seen.has(result.nextCursor)) break;
    seen.add(result.nextCursor);
    cursor = result.nextCursor;
  }
  state.tools = tools;
  state.stale = state.changes !== changes;
}

async function connect(server) {
  const state = { server, client: undefined, tools: new Map(), stale: true, changes: 0 };
  await open(state);
  await refresh(state);
  return state;
}

/** Opens (or opens anew) the session of `state.server`. */
async function open(state) {
  const { server } = state;
  const client = new Client({ name: 'catsim-example-ts-host', version: '1.0.0' });
  const transport =
    server.transport === 'http'
      ? new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${server.credentials.token}` } },
        })
      : new StdioClientTransport({
          command: server.command,
          args: server.args,
          env: { ...process.env, ...server.env },
          stderr: 'inherit',
        });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    state.changes += 1;
    state.stale = true;
  });
  await client.connect(transport);
  state.client = client;
}

async function post(result) {
  const response = await fetch(`${driver}/result`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(result),
  });
  if (!response.ok) throw new Error(`driver refused result ${result.seq}: ${await response.text()}`);
}

async function perform(step, states) {
  if (step.kind === 'sleep') {
    await new Promise((resolve) => setTimeout(resolve, step.ms));
    return { seq: step.seq, status: 'ok' };
  }
  if (step.kind === 'disclose') {
    const tools = {};
    for (const [name, state] of states) {
      while (state.stale) await refresh(state);
      tools[name] = [...state.tools.keys()];
    }
    return { seq: step.seq, status: 'ok', tools };
  }
  const state = states.get(step.server);
  while (state.stale) await refresh(state);
  if (!state.tools.has(step.tool))
    return { seq: step.seq, status: 'refused', detail: `no tool ${step.tool} in the catalog` };
  try {
    return await call(state, step);
  } catch (error) {
    // The SDK's transport does not renew an expired session: on 404 the host opens a new one
    // (Streamable HTTP says it must), walks the catalog again and retries once. The first version
    // of this host did not, and catsim's session-expiry case found it (SESSION_NOT_RENEWED).
    if (error.code !== 404) return { seq: step.seq, status: 'error', detail: String(error.message).slice(0, 200) };
    await state.client.close().catch(() => undefined);
    await open(state);
    await refresh(state);
    if (!state.tools.has(step.tool))
      return { seq: step.seq, status: 'refused', detail: `no tool ${step.tool} in the renewed catalog` };
    return await call(state, step).catch((again) => ({
      seq: step.seq,
      status: 'error',
      detail: String(again.message).slice(0, 200),
    }));
  }
}

async function call(state, step) {
  const result = await state.client.callTool({ name: step.tool, arguments: step.arguments });
  return { seq: step.seq, status: result.isError ? 'error' : 'ok' };
}

const states = new Map();
for (const server of servers) states.set(server.name, await connect(server));
for (let seq = 1; ; ) {
  const response = await fetch(`${driver}/step?seq=${seq}`);
  if (response.status === 204) continue;
  const step = await response.json();
  if (step.kind === 'end') {
    await post({ seq, status: 'ok' });
    break;
  }
  await post(await perform(step, states));
  seq += 1;
}
for (const state of states.values()) await state.client.close();
