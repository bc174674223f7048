// A hand-written MCP server on stdio (newline-delimited JSON-RPC, no SDK) that initializes
// correctly and then answers tools/list the way argv[2] says, so that `catsim discover` and
// `catsim capture` can be tested against a server that fails only after initialize:
//   ok       one page with one tool, `echo`;
//   error    a JSON-RPC error -32603 "tools are broken";
//   garbage  a result whose `tools` is a string, not an array;
//   exit     the process exits without answering.
// Run it with `node test/support/raw-stdio-server.mjs MODE`.
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'ok';
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

const answers = {
  ok: (id) => send({ id, result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } }),
  error: (id) => send({ id, error: { code: -32603, message: 'tools are broken' } }),
  garbage: (id) => send({ id, result: { tools: 'none' } }),
  exit: () => process.exit(1),
};

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') {
    send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '0.0.0' } } });
  } else if (message.method === 'tools/list') {
    answers[mode](message.id);
  } else if (message.id !== undefined && message.method !== undefined) {
    send({ id: message.id, error: { code: -32601, message: 'method not found' } });
  }
});
