import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from './support/run-main.ts';

// Issue 35 item 1: a lone UTF-16 surrogate (`\ud800`, legal in JSON text) made catsim fail with
// exit 3 ("testbed failure: Error: Lone surrogate is not allowed"). It is the input's fault: a
// file holding one is refused with one line naming where (exit 2), and a real server's tool
// holding one is quarantined as MALFORMED_DESCRIPTOR like any other malformed descriptor.
describe("a lone surrogate is the input's fault, never a testbed failure", () => {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-surrogate-'));
  const server = (mode: string): string => `${process.execPath} test/support/raw-stdio-server.mjs ${mode}`;
  const NOTE = 'holds a lone UTF-16 surrogate (legal JSON, but not Unicode text: catsim cannot digest it)';

  it('in a scenario file: its name, or a key of an audience', async () => {
    const scenario = readFileSync('scenarios/default.json', 'utf8');
    const named = join(dir, 'named.json');
    // The JSON text holds the six characters \ud800: JSON.parse makes them one lone surrogate.
    writeFileSync(named, scenario.replace(/"name": "default"/, '"name": "x\\ud800"'));
    expect(await runMain(['run', '--rounds', '1', '--workers', '0', '--no-progress', '--scenario', named])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: ${named}: /name ${NOTE}\n`,
    });
    const keyed = join(dir, 'keyed.json');
    writeFileSync(keyed, scenario.replace(/^\{/, '{"\\udc00": 1,'));
    expect(await runMain(['run', '--rounds', '1', '--workers', '0', '--no-progress', '--scenario', keyed])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: ${keyed}: the key "\\udc00" in the top level ${NOTE}\n`,
    });
  });

  it('in a catalog file: a tool description', async () => {
    const catalog = join(dir, 'catalog.json');
    writeFileSync(
      catalog,
      readFileSync('scenarios/catalogs/memory.json', 'utf8').replace('"description": "', '"description": "\\ud800'),
    );
    expect(await runMain(['run', '--rounds', '1', '--workers', '0', '--no-progress', '--catalog', catalog])).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: ${catalog}: /pages/0/tools/0/description ${NOTE}\n`,
    });
  });

  it('capture refuses the catalog (exit 2, naming where); discover quarantines the two tools as MALFORMED_DESCRIPTOR', async () => {
    const capture = await runMain(['capture', '--timeout', '30000', '--stdio', server('lone-surrogate')]);
    expect(capture).toEqual({
      code: 2,
      stdout: '',
      stderr: `catsim: server "${server('lone-surrogate')}" sent a catalog catsim cannot replay: /pages/0/tools/1/description ${NOTE}\n`,
    });
    const { code, stdout } = await runMain(['discover', '--timeout', '30000', '--stdio', server('lone-surrogate')]);
    expect(code).toBe(0);
    const tools = JSON.parse(stdout).snapshot.tools as { name: string; verdict: string; descriptorDigest: string }[];
    expect(tools.map((tool) => [tool.name, tool.verdict])).toEqual([
      ['echo', 'ok'],
      ['odd', 'MALFORMED_DESCRIPTOR'],
      ['odd2', 'MALFORMED_DESCRIPTOR'],
    ]);
    // The digest is of the canonical text with the surrogate written as its escape, as JSON.stringify writes it.
    const canonical = '{"description":"a \\ud800 b","inputSchema":{"type":"object"},"name":"odd"}';
    expect(tools[1]?.descriptorDigest).toBe(
      createHash('sha256').update(`catsim.descriptor.v1\n${canonical}`, 'utf8').digest('hex'),
    );
  });
});

// Issue 35 item 10: a scenario saved with a UTF-8 byte order mark was "not valid JSON".
describe('a UTF-8 byte order mark', () => {
  it("before a scenario file's JSON is skipped", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-bom-'));
    const path = join(dir, 'bom.json');
    writeFileSync(path, `\ufeff${readFileSync('scenarios/default.json', 'utf8')}`);
    const { code, stderr } = await runMain([
      'run',
      '--rounds',
      '1',
      '--workers',
      '0',
      '--no-progress',
      '--no-shrink',
      '--scenario',
      path,
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
