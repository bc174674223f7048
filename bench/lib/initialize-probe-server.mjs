#!/usr/bin/env node
// A minimal MCP server over stdio, in plain JavaScript with no imports beyond node:, for the
// start-up benchmark: it records when `initialize` arrives, measured from the moment the parent
// command was started, so that "time until catsim talks to the server" excludes nothing catsim
// does first. The parent's start is CATSIM_PROBE_T0 (epoch ms, fractional: performance.timeOrigin
// + performance.now() read just before spawning catsim); the elapsed ms are appended as one line
// to the file CATSIM_PROBE_OUT. It answers initialize, tools/list (no tools) and ping, ignores
// notifications, and exits when stdin closes.
import { appendFileSync } from 'node:fs';

const started = Number(process.env.CATSIM_PROBE_T0);
const out = process.env.CATSIM_PROBE_OUT;
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, newline).trim();
    buffered = buffered.slice(newline + 1);
    if (line !== '') answer(JSON.parse(line));
  }
});
process.stdin.on('end', () => process.exit(0));

function answer(message) {
  if (message.method === 'initialize') {
    const elapsed = performance.timeOrigin + performance.now() - started;
    if (out !== undefined) appendFileSync(out, `${elapsed.toFixed(1)}\n`);
    reply(message.id, {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'initialize-probe', version: '1.0.0' },
    });
  } else if (message.method === 'tools/list') {
    reply(message.id, { tools: [] });
  } else if (message.method === 'ping') {
    reply(message.id, {});
  } else if (message.id !== undefined) {
    process.stdout.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } })}\n`,
    );
  }
}

function reply(id, result) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
}
