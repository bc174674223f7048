import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkCatalog } from '../cli/commands/capture.ts';
import { InputError } from '../cli/errors.ts';
import { loadCatalog } from '../sim/plan/catalog.ts';
import { runMain } from './support/run-main.ts';
import { scriptedPair, tool, type Script, type ScriptedPair } from './support/scripted-server.ts';
import { catsim } from './support/run-cli.ts';

const node = process.execPath;
const serverJs = (name: string) => `node_modules/@modelcontextprotocol/server-${name}/dist/index.js`;

// The tool names each reference server lists (server-everything to a client with empty capabilities),
// as captured in scenarios/catalogs/.
const EXPECTED: Record<string, string[]> = {
  everything: [
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
  ],
  filesystem: [
    'read_file',
    'read_text_file',
    'read_media_file',
    'read_multiple_files',
    'write_file',
    'edit_file',
    'create_directory',
    'list_directory',
    'list_directory_with_sizes',
    'directory_tree',
    'move_file',
    'search_files',
    'get_file_info',
    'list_allowed_directories',
  ],
  memory: [
    'create_entities',
    'create_relations',
    'add_observations',
    'delete_entities',
    'delete_observations',
    'delete_relations',
    'read_graph',
    'search_nodes',
    'open_nodes',
  ],
};

describe('catsim capture against the reference servers', () => {
  let fsDir = '';
  let memDir = '';
  beforeAll(() => {
    fsDir = mkdtempSync(join(tmpdir(), 'catsim-capture-fs-'));
    memDir = mkdtempSync(join(tmpdir(), 'catsim-capture-mem-'));
  });
  afterAll(() => {
    rmSync(fsDir, { recursive: true, force: true });
    rmSync(memDir, { recursive: true, force: true });
  });
  // The filesystem server gets a fresh temporary directory: its descriptors must not mention it.
  const commandOf = (name: string): string =>
    ({
      everything: `${node} ${serverJs('everything')}`,
      filesystem: `${node} ${serverJs('filesystem')} ${fsDir}`,
      memory: `env MEMORY_FILE_PATH=${join(memDir, 'memory.jsonl')} ${node} ${serverJs('memory')}`,
    })[name] as string;

  for (const name of Object.keys(EXPECTED)) {
    it(`captures exactly the ${EXPECTED[name]?.length} tools of server-${name}, equal to the shipped scenarios/catalogs/${name}.json`, async () => {
      const command = commandOf(name);
      const { code, stdout, stderr } = await catsim(['capture', '--stdio', command]);
      expect(code, stderr).toBe(0);
      expect(stdout.endsWith('}\n')).toBe(true);
      const captured = JSON.parse(stdout);
      expect(stdout).toBe(`${JSON.stringify(captured, null, 2)}\n`);
      expect(captured.schema).toBe('catsim.catalog.v1');
      expect(captured.source.command).toBe(command);
      expect(captured.source.protocolVersion).toBe('2025-11-25');
      expect(captured.pages).toHaveLength(1);
      const tools = captured.pages.flatMap((page: { tools: unknown[] }) => page.tools) as { name: string }[];
      expect(tools.map((t) => t.name).sort()).toEqual([...(EXPECTED[name] as string[])].sort());
      const shipped = loadCatalog(`scenarios/catalogs/${name}.json`);
      expect(tools).toEqual(shipped.tools);
      expect(JSON.stringify(tools)).not.toContain(fsDir);
    });
  }

  it('leaves the memory file alone: listing tools writes nothing', () => {
    expect(readdirSync(memDir)).toEqual([]);
  });

  it('fails with one line and exit 2 when the server cannot start', async () => {
    const { code, stdout, stderr } = await catsim(['capture', '--stdio', 'no-such-command-catsim']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('catsim: cannot start server: command "no-such-command-catsim" not found\n');
  });

  // The same servers as in test/discover.test.ts: both commands call these input errors (exit 2).
  it.each([
    ['error', 'failed tools/list page 1: error -32603: tools are broken'],
    ['garbage', 'failed tools/list page 1: the result is not a tools/list result'],
    ['busy', 'failed tools/list page 1: error -32001: server busy'],
    [
      'page-11mib',
      'failed tools/list page 1: the page is larger than 10485760 bytes, the most one stdio message may hold',
    ],
  ])('fails with one line and exit 2 when tools/list answers %s after initialize', async (mode, problem) => {
    const command = `${node} test/support/raw-stdio-server.mjs ${mode}`;
    const { code, stdout, stderr } = await runMain(['capture', '--timeout', '30000', '--stdio', command]);
    expect(stderr).toBe(`catsim: server "${command}" ${problem}\n`);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  });
});

/** Runs walkCatalog on a scripted server, counting list_changed notifications like capture does. */
async function walk(script: (pair: () => ScriptedPair) => Script, pageCountMax = 10) {
  let pair: ScriptedPair | undefined;
  pair = await scriptedPair(script(() => pair as ScriptedPair));
  let changes = 0;
  pair.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes += 1;
  });
  try {
    const pages = await walkCatalog(pair.client, () => changes, {
      label: 'server "s"',
      timeoutMs: 5_000,
      pageCountMax,
    });
    return { pages, requests: pair.requests };
  } finally {
    await pair.close();
  }
}

describe('walkCatalog', () => {
  it('follows nextCursor while it is present; an empty string is a cursor', async () => {
    const { pages, requests } = await walk(
      () => (cursor) =>
        cursor === undefined
          ? { tools: [tool('a')], nextCursor: '' }
          : cursor === ''
            ? { tools: [tool('b')], nextCursor: 'c2' }
            : { tools: [] },
    );
    expect(requests).toEqual([undefined, '', 'c2']);
    expect(pages).toEqual([
      { cursorIn: null, nextCursor: '', tools: [tool('a')] },
      { cursorIn: '', nextCursor: 'c2', tools: [tool('b')] },
      { cursorIn: 'c2', nextCursor: null, tools: [] },
    ]);
  });

  it('starts again from page 1 when a list_changed arrives during the walk', async () => {
    const { pages, requests } = await walk((pair) => (cursor, n) => {
      if (n === 1) void pair().server.sendToolListChanged();
      if (cursor === undefined) return { tools: [tool(n < 2 ? 'old' : 'new')], nextCursor: 'p2' };
      return { tools: [tool('last')] };
    });
    expect(requests).toEqual([undefined, 'p2', undefined, 'p2']);
    expect(pages.flatMap((page) => page.tools.map((t) => t.name))).toEqual(['new', 'last']);
  });

  it('gives up with one line when the list changes during every walk', async () => {
    await expect(
      walk((pair) => () => {
        void pair().server.sendToolListChanged();
        return { tools: [tool('a')] };
      }),
    ).rejects.toThrow(
      new InputError(
        'server "s" sent tools/list_changed during each of 4 walks of tools/list; its catalog never held still',
      ),
    );
  });

  it('refuses a cursor loop, a walk beyond the page cap, and a failing page', async () => {
    await expect(
      walk(() => (cursor) => ({ tools: [], nextCursor: cursor === 'B' ? 'A' : cursor === 'A' ? 'B' : 'A' })),
    ).rejects.toThrow(
      new InputError('server "s" returned the cursor "A" again on page 3 of tools/list (a cursor loop)'),
    );
    await expect(walk(() => (_, n) => ({ tools: [], nextCursor: `c${n}` }), 5)).rejects.toThrow(
      new InputError('server "s" sent more than 5 pages of tools/list (raise --page-count-max if that is real)'),
    );
    await expect(
      walk(() => (cursor) => (cursor === undefined ? { tools: [], nextCursor: 'x' } : { error: -32602 })),
    ).rejects.toThrow(new InputError('server "s" failed tools/list page 2: error -32602: scripted error'));
    // A server's -32001 is its error, not the SDK's own timeout (which says no answer came).
    await expect(walk(() => () => ({ error: -32001, message: 'server busy' }))).rejects.toThrow(
      new InputError('server "s" failed tools/list page 1: error -32001: server busy'),
    );
  });
});

describe('walkCatalog on a malformed page', () => {
  it('says the result is not a tools/list result', async () => {
    await expect(walk(() => () => ({ tools: 'none' as never }))).rejects.toThrow(
      new InputError('server "s" failed tools/list page 1: the result is not a tools/list result'),
    );
  });
});
