import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { runMain } from './support/run-main.ts';
import { catsim } from './support/run-cli.ts';

// The 13 tools server-everything lists to a client with empty capabilities (scenarios/catalogs/everything.json):
// 12 always present plus simulate-research-query, registered right after initialisation with a list_changed.
const EVERYTHING_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
  'simulate-research-query',
];

describe('catsim discover against a real MCP server over stdio', () => {
  it('lists every tool of server-everything as an UNVERSIONED_OBSERVATION with per-tool digests', async () => {
    const { code, stdout } = await catsim([
      'discover',
      '--stdio',
      `${process.execPath} node_modules/@modelcontextprotocol/server-everything/dist/index.js`,
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.state).toBe('UNVERSIONED_OBSERVATION');
    expect(result.reason).toBe('OK');
    const tools = result.snapshot.tools as {
      name: string;
      descriptorDigest: string;
      verdict: string;
      effectClass: string;
    }[];
    expect(tools.map((tool) => tool.name).sort()).toEqual([...EVERYTHING_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.descriptorDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(tool.verdict).toBe('ok');
      expect(tool.effectClass).toBe('WRITE');
    }
    expect(new Set(tools.map((tool) => tool.descriptorDigest)).size).toBe(13);
    expect(result.snapshot.sourceRevision).toBeNull();
    expect(result.snapshot.schema).toBe('toolCatalogSnapshot.v1');
    expect(result.snapshot.protocolVersion).toBe('2025-11-25');
  });

  it('fails with one line and exit 2 when the server cannot start, exits early or answers garbage', async () => {
    const node = process.execPath;
    const cases: [string, string][] = [
      ['no-such-command-catsim', 'catsim: cannot start server: command "no-such-command-catsim" not found'],
      // Named by the whole command line, as after initialize (issue 35 item 10), not by its first word.
      [`${node} -e "process.exit(3)"`, `catsim: server "${node} -e "process.exit(3)"" exited before answering`],
      [
        `${node} -e "setInterval(() => console.log('garbage'), 50)"`,
        `catsim: server "${node} -e "setInterval(() => console.log('garbage'), 50)"" did not answer initialize within 2000 ms`,
      ],
    ];
    for (const [command, message] of cases) {
      const { code, stdout, stderr } = await catsim(['discover', '--timeout', '2000', '--stdio', command]);
      expect(code, command).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.startsWith(message), stderr).toBe(true);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

// A server that initializes and then fails its tools/list is bad input like one that never starts
// (exit 2, one line, nothing on stdout), as for `catsim capture`: exit 1 is for violated invariants.
describe('catsim discover against a server that fails after initialize', () => {
  const server = (mode: string): string => `${process.execPath} test/support/raw-stdio-server.mjs ${mode}`;
  it.each([
    ['error', 'INCOMPLETE REQUEST_FAILED (tools/list answered with error -32603: tools are broken)'],
    // The SDK's own request timeout is -32001 too; a server refusing at once is still not a timeout.
    ['busy', 'INCOMPLETE REQUEST_FAILED (tools/list answered with error -32001: server busy)'],
    // A page longer than the stdio transport reads is a size refusal, not a retryable disconnect.
    ['page-10mb', 'QUARANTINED BYTE_LIMIT (more than 8388608 bytes of pages)'],
    ['garbage', 'INCOMPLETE MALFORMED_PAGE (tools/list answered with something that is not a tools/list result)'],
    ['exit', 'INCOMPLETE DISCONNECTED (the connection closed during the scan)'],
    // 12,000 valid tools on one page: every page and byte limit of the scan passes, the whole
    // catalog's tool count (10,000 by default, SPEC section 5) does not: no snapshot, exit 2.
    ['tools-12000', 'QUARANTINED TOO_MANY_TOOLS (more than 10000 tools in the catalog)'],
  ])('tools/list %s: exit 2 with one line naming the server and the reason', async (mode, ending) => {
    const { code, stdout, stderr } = await runMain(['discover', '--timeout', '30000', '--stdio', server(mode)]);
    expect(stderr).toBe(`catsim: server "${server(mode)}" gave no snapshot: discovery ended ${ending}\n`);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });

  it('the same server answering tools/list properly gives its snapshot and exit 0', async () => {
    const { code, stdout, stderr } = await runMain(['discover', '--timeout', '10000', '--stdio', server('ok')]);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout).snapshot.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo']);
    expect(code).toBe(0);
  });
});

describe('catsim discover: initialize refused, page cap, oversized tools', () => {
  const server = (mode: string): string => `${process.execPath} test/support/raw-stdio-server.mjs ${mode}`;

  it('a server answering initialize with error -32001 is said to have refused it, not to have timed out', async () => {
    const { code, stderr } = await runMain(['discover', '--timeout', '10000', '--stdio', server('init-error')]);
    expect(stderr).toBe(
      `catsim: server "${server('init-error')}" answered initialize with error -32001: initialize refused\n`,
    );
    expect(code).toBe(2);
  });

  it('--page-count-max caps the scan (PAGE_LIMIT); the default (1,000) reads both pages', async () => {
    const capped = await runMain(['discover', '--page-count-max', '1', '--stdio', server('two-pages')]);
    expect(capped.stderr).toBe(
      `catsim: server "${server('two-pages')}" gave no snapshot: discovery ended QUARANTINED PAGE_LIMIT (more than 1 pages (raise --page-count-max if that is real))\n`,
    );
    expect(capped.code).toBe(2);
    const { code, stdout } = await runMain(['discover', '--stdio', server('two-pages')]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).snapshot.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo', 'echo2']);
  });

  it('discover and capture document the same --page-count-max default in --help', async () => {
    for (const command of ['discover', 'capture']) {
      const { stdout } = await catsim([command, '--help']);
      // The option's entry runs from its name to the next option (yargs wraps long lines).
      const entry = stdout.slice(stdout.indexOf('--page-count-max')).split(/\n {2}--/)[0];
      expect(entry, command).toContain('[default: 1000]');
    }
  });

  it('prints a quarantined oversized tool as its digest, size and reason, never its 5 MB body', async () => {
    const { code, stdout } = await runMain(['discover', '--timeout', '30000', '--stdio', server('oversized-tool')]);
    expect(code).toBe(0);
    expect(stdout.length).toBeLessThan(5_000);
    const huge = { name: 'huge', description: 'y'.repeat(5_000_000), inputSchema: { type: 'object' } };
    // SPEC section 4: descriptorDigest = sha256("catsim.descriptor.v1\n" + JCS(tool as sent)).
    const digest = createHash('sha256')
      .update(`catsim.descriptor.v1\n${canonicalize(huge)}`, 'utf8')
      .digest('hex');
    const tools = JSON.parse(stdout).snapshot.tools;
    expect(tools[1]).toEqual({
      name: 'huge',
      descriptorDigest: digest,
      verdict: 'OVERSIZED_DESCRIPTOR',
      descriptorBytes: 5_000_064,
      sourceOmitted: true,
    });
    expect(tools[0].source).toEqual({ name: 'echo', inputSchema: { type: 'object' } });
  });
});
