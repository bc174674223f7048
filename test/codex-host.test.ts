/**
 * A real agent host from the npm registry, unchanged, under black-box mode with the model endpoint
 * (issue 34): the OpenAI Codex CLI (`@openai/codex` 0.171.0, the Responses API), configured only by
 * examples/codex-cli-host/run.mjs (its MCP servers pointed at catsim's, its model provider's base URL
 * at catsim's endpoint). Codex is not a dependency of catsim: `npm run hosts:codex` installs the
 * pinned version into the gitignored `.hosts/` folder (or set CATSIM_CODEX_BIN); without it these
 * tests are skipped, the skip's name saying why. Outcomes are the ones docs/BLACK-BOX.md's table
 * gives for this version, each checked against Codex's documented behaviour there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BlackBoxCase, loadCases } from '../blackbox/case.ts';
import { runCase } from '../blackbox/run-case.ts';

const ROOT = join(import.meta.dirname, '..');
const PINNED = '0.171.0';
const CODEX = process.env.CATSIM_CODEX_BIN ?? join(ROOT, '.hosts', 'node_modules', '.bin', 'codex');
const HOST = [process.execPath, join(ROOT, 'examples', 'codex-cli-host', 'run.mjs')];

/** Why the Codex tests cannot run here, or null when the pinned Codex CLI is installed. */
function missing(): string | null {
  if (!existsSync(CODEX))
    return `not installed at ${CODEX} (npm run hosts:codex installs @openai/codex@${PINNED} into .hosts/; or set CATSIM_CODEX_BIN)`;
  const version = spawnSync(CODEX, ['--version'], { encoding: 'utf8', timeout: 30_000 }).stdout.trim();
  return version === `codex-cli ${PINNED}` ? null : `${CODEX} is "${version}", not the pinned codex-cli ${PINNED}`;
}

const why = missing();
// The one line a skipped run prints, saying why and how to install the host.
if (why !== null) console.warn(`the Codex CLI tests are skipped: ${why}`);
const run = (name: string): ReturnType<typeof runCase> =>
  runCase(loadCases(name)[0] as BlackBoxCase, 'codex', 'http', [...HOST], { modelEndpoint: true });

describe.skipIf(why !== null)(`the Codex CLI ${PINNED} under catsim${why === null ? '' : ` (skipped: ${why})`}`, () => {
  it('full-walk: OK, through the Responses API (two streamed requests, the MCP tools in namespace mcp__alpha)', async () => {
    const result = await run('full-walk');
    expect([result.outcome, result.line]).toEqual(['OK', 'full-walk: no violation']);
    expect(result.modelRequests?.map((r) => [r.api, r.stream, r.answer.kind, r.answer.name])).toEqual([
      ['openai.responses', true, 'tool_call', 'mcp__alpha__archive'],
      ['openai.responses', true, 'text', null],
    ]);
    expect(result.steps.map((s) => s.status)).toEqual(['ok', 'ok', 'ok']);
  }, 60_000);

  const codes = (result: Awaited<ReturnType<typeof runCase>>): string[] =>
    result.violations.map((v) => `${v.invariant} ${v.code}`);

  it('change-between-pages: FAILED: Codex shows its model the walk that spanned the change (I4 mixed walk) and calls export without listing again after list_changed (I18)', async () => {
    const result = await run('change-between-pages');
    expect([result.outcome, codes(result)]).toEqual([
      'FAILED',
      ['I19 REFRESH_MISSING', 'I4 DISCLOSED_MIXED_WALK', 'I18 CALL_BEFORE_RELIST', 'I4 DISCLOSED_MIXED_WALK'],
    ]);
  }, 60_000);

  it('removal-after-use: FAILED: after the list_changed it calls export again and still shows the old list (I4 after change)', async () => {
    const result = await run('removal-after-use');
    expect([result.outcome, codes(result)]).toEqual([
      'FAILED',
      ['I19 REFRESH_MISSING', 'I18 CALL_BEFORE_RELIST', 'I4 DISCLOSED_AFTER_CHANGE'],
    ]);
  }, 60_000);

  it('guessed-name: OK: a call of delete_all, which it never showed, is answered "unsupported call" and never sent to the server', async () => {
    const result = await run('guessed-name');
    expect([result.outcome, result.steps[1]]).toEqual([
      'OK',
      { seq: 2, status: 'ok', detail: 'unsupported call: mcp__alphadelete_all' },
    ]);
    expect(
      result.wireLog.filter((entry) => 'method' in entry.message && entry.message.method === 'tools/call'),
    ).toEqual([]);
  }, 60_000);

  it('non-object-schema: FAILED, I5: Codex shows its model a tool whose input schema root is an array (in both model requests)', async () => {
    const result = await run('non-object-schema');
    expect([result.outcome, codes(result)]).toEqual(['FAILED', ['I5 DEFECT_ADMITTED', 'I5 DEFECT_ADMITTED']]);
  }, 60_000);

  it('restart-mid-walk: OK on the wire, but Codex drops the server whose page-2 cursor is refused after the restart: its model sees none of its tools and the call step is refused', async () => {
    const result = await run('restart-mid-walk');
    expect([result.outcome, result.steps.map((s) => [s.status, s.detail ?? null])]).toEqual([
      'OK',
      [
        ['ok', 'disclosed by model request 0'],
        ['refused', 'model request 0 shows the model no tool of alpha (the host left that server out)'],
        ['ok', null],
      ],
    ]);
  }, 60_000);
});
