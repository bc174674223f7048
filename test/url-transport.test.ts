import { execFile, execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { certificateFingerprint } from '../src/connect/tls-fingerprint.ts';
import { loadCatalog } from '../sim/plan/catalog.ts';
import {
  closedPortUrl,
  readJson,
  startLegacySseServer,
  startRawHttpServer,
  startStreamableServer,
  type TestHttpServer,
} from './support/http-mcp-server.ts';
import { runMain } from './support/run-main.ts';
import { catsim } from './support/run-cli.ts';

const TOOLS: Tool[] = [
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
  {
    name: 'echo',
    description: 'Echoes its message',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  },
  { name: 'now', description: 'Tells the time', inputSchema: { type: 'object' } },
];

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

let server: TestHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('catsim discover --url against a Streamable HTTP server', () => {
  it('prints the snapshot of every tool, with the http identity, and ends the session', async () => {
    server = await startStreamableServer(TOOLS, { pageSize: 2 });
    const { code, stdout, stderr } = await runMain(['discover', '--url', server.url]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.state).toBe('UNVERSIONED_OBSERVATION');
    expect(result.reason).toBe('OK');
    expect(result.snapshot.tools.map((tool: { name: string }) => tool.name)).toEqual(['add', 'echo', 'now']);
    expect(result.snapshot.tools.map((tool: { verdict: string }) => tool.verdict)).toEqual(['ok', 'ok', 'ok']);
    expect(result.snapshot.serverIdentity).toBe(`http:${sha256(server.url)}`);
    expect(result.snapshot.protocolVersion).toBe('2025-11-25');
    expect(server.sessionsEnded()).toBe(1);
  });

  it('the executable prints the same and exits by itself (no connection left open)', async () => {
    server = await startStreamableServer(TOOLS);
    const { code, stdout, stderr } = await catsim(['discover', '--url', server.url]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).snapshot.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'add',
      'echo',
      'now',
    ]);
  });
});

describe('catsim capture --url', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'catsim-url-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every page as walked, with the URL and transport as its source, and the file loads', async () => {
    server = await startStreamableServer(TOOLS, { pageSize: 2 });
    const out = join(dir, 'http.json');
    const { code, stdout, stderr } = await runMain(['capture', '--url', server.url, '--out', out]);
    expect(stderr).toBe('');
    expect(stdout).toBe('');
    expect(code).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.pages).toEqual([
      { cursorIn: null, nextCursor: '2', tools: [TOOLS[0], TOOLS[1]] },
      { cursorIn: '2', nextCursor: null, tools: [TOOLS[2]] },
    ]);
    const { capturedAt, ...source } = file.source;
    expect(source).toEqual({
      command: '',
      url: server.url,
      transport: 'streamable-http',
      serverInfo: { name: 'catsim-test-http', version: '1.2.3' },
      protocolVersion: '2025-11-25',
    });
    expect(typeof capturedAt).toBe('string');
    expect(loadCatalog(out).tools.map((tool) => tool.name)).toEqual(['add', 'echo', 'now']);
  });

  it('falls back to the legacy HTTP+SSE transport when the POST is answered 405', async () => {
    server = await startLegacySseServer(TOOLS);
    const { code, stdout, stderr } = await runMain(['capture', '--url', server.url]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const file = JSON.parse(stdout);
    expect(file.source.transport).toBe('sse');
    expect(file.pages).toEqual([{ cursorIn: null, nextCursor: null, tools: TOOLS }]);
    const discovered = await runMain(['discover', '--url', server.url]);
    expect(discovered.code).toBe(0);
    expect(JSON.parse(discovered.stdout).snapshot.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'add',
      'echo',
      'now',
    ]);
  });
});

describe('--stdio and --url on the command line', () => {
  it.each(['discover', 'capture'])('%s: exactly one of them, else one line and exit 2', async (command) => {
    const url = 'http://127.0.0.1:9/mcp';
    for (const args of [['--stdio', 'node x.js', '--url', url], []]) {
      const { code, stdout, stderr } = await runMain([command, ...args]);
      expect(stderr, args.join(' ')).toBe(`catsim: ${command} needs exactly one of --stdio CMD or --url URL\n`);
      expect(stdout).toBe('');
      expect(code).toBe(2);
    }
    // A repeated option is refused as such, like every option (cli/counts.ts refuseRepeats).
    expect(await runMain([command, '--url', url, '--url', url])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: --url given twice (${url}, ${url}): give it once\n`,
    });
  });

  it.each(['not-a-url', 'ftp://example.com/mcp', '127.0.0.1:3001/mcp', ''])(
    '--url %j is refused before anything is reached',
    async (value) => {
      for (const command of ['discover', 'capture']) {
        const { code, stdout, stderr } = await runMain([command, '--url', value]);
        expect(stderr).toBe(`catsim: --url must be an http(s) URL, got ${value === '' ? 'an empty string' : value}\n`);
        expect(stdout).toBe('');
        expect(code).toBe(2);
      }
    },
  );
});

/** Answers a POSTed `initialize` properly (JSON), notifications with 202, and `tools/list` with `toolsList`. */
function rawMcp(toolsList: (id: unknown) => unknown): (req: IncomingMessage, res: ServerResponse) => void {
  const json = (res: ServerResponse, body: unknown): void => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  return (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    void readJson(req).then((message) => {
      const { id, method, params } = message as { id?: unknown; method: string; params?: { protocolVersion?: string } };
      if (id === undefined) res.writeHead(202).end();
      else if (method === 'initialize')
        json(res, {
          jsonrpc: '2.0',
          id,
          result: {
            protocolVersion: params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'raw', version: '0.0.0' },
          },
        });
      else if (method === 'tools/list') json(res, { jsonrpc: '2.0', id, ...(toolsList(id) as object) });
      else json(res, { jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found' } });
    });
  };
}

describe('a --url server that cannot be reached or answers garbage: one line, exit 2', () => {
  async function expectRefusal(args: string[], message: string | RegExp): Promise<void> {
    for (const command of ['discover', 'capture']) {
      const { code, stdout, stderr } = await runMain([command, '--timeout', '1000', ...args]);
      if (typeof message === 'string') expect(stderr, command).toBe(`catsim: ${message}\n`);
      else expect(stderr, command).toMatch(message);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stdout).toBe('');
      expect(code).toBe(2);
    }
  }

  it('a closed port', async () => {
    const url = await closedPortUrl();
    const port = new URL(url).port;
    await expectRefusal(['--url', url], `server "${url}" cannot be reached: connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it('a port fetch refuses to connect to', async () => {
    await expectRefusal(
      ['--url', 'http://127.0.0.1:9/mcp'],
      'server "http://127.0.0.1:9/mcp" cannot be reached: fetch refuses to connect to this port (on the Fetch standard\'s list of bad ports)',
    );
  });

  it('an unknown host', async () => {
    await expectRefusal(
      ['--url', 'http://no-such-host.invalid/mcp'],
      /^catsim: server "http:\/\/no-such-host\.invalid\/mcp" cannot be reached: getaddrinfo \w+ no-such-host\.invalid\n$/,
    );
  });

  it('an HTTP error status, with the body quoted', async () => {
    server = await startRawHttpServer((_req, res) => {
      res.writeHead(500).end('boom\nat line 2');
    });
    await expectRefusal(['--url', server.url], `server "${server.url}" answered initialize with HTTP 500: boom`);
  });

  it('a 4xx over Streamable HTTP and over the legacy event-stream GET', async () => {
    server = await startRawHttpServer((_req, res) => {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Not Found' }, id: null }));
    });
    await expectRefusal(
      ['--url', server.url],
      `server "${server.url}" answered initialize with HTTP 404: Not Found; over the legacy HTTP+SSE transport it answered the event-stream GET with HTTP 404`,
    );
  });

  it('a 401: catsim sends no credentials', async () => {
    server = await startRawHttpServer((_req, res) => {
      res.writeHead(401).end('Unauthorized');
    });
    await expectRefusal(
      ['--url', server.url],
      `server "${server.url}" answered initialize with HTTP 401: Unauthorized (catsim sends no credentials); over the legacy HTTP+SSE transport it answered the event-stream GET with HTTP 401`,
    );
  });

  it.each([
    ['text/html', '<html>hello</html>', 'the content type is text/html'],
    ['application/json', 'not json{', 'the body is not JSON'],
    ['application/json', '{"hello":"world"}', 'the answer is not a JSON-RPC initialize result'],
  ])('a 200 answer of %s %j', async (type, body, why) => {
    server = await startRawHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': type }).end(body);
    });
    await expectRefusal(
      ['--url', server.url],
      `server "${server.url}" answered initialize with something that is not MCP: ${why}`,
    );
  });

  it('an event stream of garbage, then silence: the timeout names the last transport error', async () => {
    server = await startRawHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write('event: message\ndata: not json\n\n');
    });
    await expectRefusal(
      ['--url', server.url],
      new RegExp(
        `^catsim: server "${server.url}" did not answer initialize within 1000 ms \\(last transport error: .*JSON.*\\)\\n$`,
      ),
    );
  });

  it('no answer at all', async () => {
    server = await startRawHttpServer(() => undefined);
    await expectRefusal(['--url', server.url], `server "${server.url}" did not answer initialize within 1000 ms`);
  });

  it('a server that initializes and then answers tools/list with garbage', async () => {
    server = await startRawHttpServer(rawMcp(() => ({ result: { tools: 'none' } })));
    const discovered = await runMain(['discover', '--url', server.url]);
    expect(discovered.stderr).toBe(
      `catsim: server "${server.url}" gave no snapshot: discovery ended INCOMPLETE MALFORMED_PAGE (tools/list answered with something that is not a tools/list result)\n`,
    );
    expect(discovered.code).toBe(2);
    const captured = await runMain(['capture', '--url', server.url]);
    expect(captured.stderr).toBe(
      `catsim: server "${server.url}" failed tools/list page 1: the result is not a tools/list result\n`,
    );
    expect(captured.code).toBe(2);
  });

  it('the same server answering tools/list properly is captured', async () => {
    server = await startRawHttpServer(rawMcp(() => ({ result: { tools: [TOOLS[1]] } })));
    const { code, stdout, stderr } = await runMain(['capture', '--url', server.url]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout).pages).toEqual([{ cursorIn: null, nextCursor: null, tools: [TOOLS[1]] }]);
  });
});

// https needs a certificate: one is made with openssl for the test, when openssl is installed.
const hasOpenssl = ((): boolean => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasOpenssl)('--url https://', () => {
  let dir = '';
  const tls = { key: '', cert: '' };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'catsim-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    tls.key = readFileSync(join(dir, 'key.pem'), 'utf8');
    tls.cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the certificate fingerprint over a verified handshake', async () => {
    server = await startStreamableServer(TOOLS, { tls });
    const fingerprint = await certificateFingerprint(new URL(server.url), { timeoutMs: 5000, ca: tls.cert });
    expect(fingerprint).toBe(new X509Certificate(tls.cert).fingerprint256);
  });

  it('an untrusted certificate: one line, exit 2', async () => {
    server = await startStreamableServer(TOOLS, { tls });
    const { code, stdout, stderr } = await runMain(['discover', '--url', server.url]);
    expect(stderr).toBe(`catsim: server "${server.url}" cannot be reached: self-signed certificate\n`);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });

  it('a trusted certificate: the identity digests the URL and the certificate fingerprint', async () => {
    server = await startStreamableServer(TOOLS, { tls });
    const { code, stdout, stderr } = await catsim(['discover', '--url', server.url], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') },
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const fingerprint = new X509Certificate(tls.cert).fingerprint256;
    expect(JSON.parse(stdout).snapshot.serverIdentity).toBe(`https:${sha256(`${server.url} ${fingerprint}`)}`);
  });
});
