// A hand-written MCP server on stdio (newline-delimited JSON-RPC, no SDK) that misbehaves the way
// argv[2] says, so that `catsim discover` and `catsim capture` can be tested against servers that
// fail before or after initialize. Run it with
//   node test/support/raw-stdio-server.mjs MODE [--ignore-term] [--pid-file FILE]
// Modes that answer initialize correctly and then answer tools/list:
//   ok              one page with one tool, `echo`;
//   error           a JSON-RPC error -32603 "tools are broken";
//   busy            a JSON-RPC error -32001 "server busy" at once (the SDK's own timeout code);
//   garbage         a result whose `tools` is a string, not an array;
//   exit            the process exits without answering;
//   silent          never (it keeps reading stdin);
//   page-10mb       one page of 10,000,000 bytes: one tool whose description fills it;
//   page-11mib      the same with 11 MiB (11,534,336 bytes), over the SDK's 10 MiB stdio buffer;
//   oversized-tool  `echo` and `huge`, a tool with a 5,000,000-byte description;
//   two-pages       `echo` on page 1 with nextCursor "p2", then `echo2` on the last page;
//   tools-12000     one page of 12,000 small valid tools, `t0` .. `t11999` (over the 10,000-tool catalog limit);
//   lone-surrogate  `echo`, then `odd` whose description is a lone UTF-16 surrogate (`\ud800`, legal JSON),
//                   then `odd2` with one in a property name of its inputSchema.
// Modes that never get that far:
//   init-error      initialize is answered with a JSON-RPC error -32001 "initialize refused";
//   mute            nothing is ever answered (it keeps reading stdin);
//   babble          nothing is ever answered, but a line of garbage is written every 50 ms.
// --ignore-term: SIGTERM is ignored and the process stays alive after stdin ends (only SIGKILL
// ends it). --pid-file FILE: the process writes its pid to FILE first.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [mode = 'ok', ...flags] = process.argv.slice(2);
const pidFile = flags.includes('--pid-file') ? flags[flags.indexOf('--pid-file') + 1] : undefined;
if (pidFile !== undefined) writeFileSync(pidFile, String(process.pid));
if (flags.includes('--ignore-term')) {
  process.on('SIGTERM', () => undefined);
  setInterval(() => undefined, 1000);
}

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
/** One tools/list result whose JSON-RPC line is exactly `bytes` long (one tool, padded description). */
const pageOfBytes = (id, bytes) => {
  const empty = JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: { tools: [{ name: 'big', description: '', inputSchema: { type: 'object' } }] },
  });
  send({
    id,
    result: {
      tools: [{ name: 'big', description: 'x'.repeat(bytes - empty.length), inputSchema: { type: 'object' } }],
    },
  });
};
const ECHO = { name: 'echo', inputSchema: { type: 'object' } };

const answers = {
  ok: (id) => send({ id, result: { tools: [ECHO] } }),
  error: (id) => send({ id, error: { code: -32603, message: 'tools are broken' } }),
  busy: (id) => send({ id, error: { code: -32001, message: 'server busy' } }),
  garbage: (id) => send({ id, result: { tools: 'none' } }),
  exit: () => process.exit(1),
  silent: () => undefined,
  'page-10mb': (id) => pageOfBytes(id, 10_000_000),
  'page-11mib': (id) => pageOfBytes(id, 11 * 1024 * 1024),
  'two-pages': (id, params) =>
    send({
      id,
      result: params?.cursor === 'p2' ? { tools: [{ ...ECHO, name: 'echo2' }] } : { tools: [ECHO], nextCursor: 'p2' },
    }),
  'tools-12000': (id) =>
    send({ id, result: { tools: Array.from({ length: 12_000 }, (_, i) => ({ ...ECHO, name: `t${i}` })) } }),
  'lone-surrogate': (id) =>
    send({
      id,
      result: {
        tools: [
          ECHO,
          { name: 'odd', description: 'a \ud800 b', inputSchema: { type: 'object' } },
          { name: 'odd2', inputSchema: { type: 'object', properties: { 'p\udc00': { type: 'string' } } } },
        ],
      },
    }),
  'oversized-tool': (id) =>
    send({
      id,
      result: { tools: [ECHO, { name: 'huge', description: 'y'.repeat(5_000_000), inputSchema: { type: 'object' } }] },
    }),
};

if (mode === 'babble') setInterval(() => process.stdout.write('garbage\n'), 50);

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (mode === 'mute' || mode === 'babble') return;
  if (message.method === 'initialize') {
    if (mode === 'init-error') send({ id: message.id, error: { code: -32001, message: 'initialize refused' } });
    else
      send({
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'raw', version: '0.0.0' },
        },
      });
  } else if (message.method === 'tools/list') {
    answers[mode](message.id, message.params);
  } else if (message.id !== undefined && message.method !== undefined) {
    send({ id: message.id, error: { code: -32601, message: 'method not found' } });
  }
});
