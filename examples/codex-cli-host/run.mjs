#!/usr/bin/env node
// Runs the OpenAI Codex CLI (`@openai/codex`, pinned 0.171.0) unchanged under catsim's black-box
// mode with the model endpoint (docs/BLACK-BOX.md, "LLM hosts"). Nothing here talks to catsim:
// it only writes Codex's own configuration (config.toml in a fresh CODEX_HOME) from the two
// variables catsim gives a host, and runs `codex exec` once.
//
// - every entry of CATSIM_SERVERS becomes `[mcp_servers.<name>]`: `url` and
//   `bearer_token_env_var` for Streamable HTTP, `command`/`args`/`env` for stdio, with
//   `default_tools_approval_mode = "approve"` (no person is there to approve a tool call);
// - CATSIM_MODEL_URL + `/v1` becomes a model provider with `wire_api = "responses"` (the OpenAI
//   Responses API), no key (`requires_openai_auth = false`);
// - `approval_policy = "never"`, `sandbox_mode = "read-only"`, no update check, no history file.
//
// The Codex binary: CATSIM_CODEX_BIN, else `.hosts/node_modules/.bin/codex` of this repository
// (`npm run hosts:codex` installs it there). Usage under catsim:
//   catsim host-test --agent codex --transport http --model-endpoint -- node examples/codex-cli-host/run.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const servers = JSON.parse(process.env.CATSIM_SERVERS ?? '[]');
const modelUrl = process.env.CATSIM_MODEL_URL;
if (modelUrl === undefined) {
  console.error('codex-cli-host: CATSIM_MODEL_URL is not set (run under catsim --model-endpoint)');
  process.exit(2);
}
const codex =
  process.env.CATSIM_CODEX_BIN ?? join(import.meta.dirname, '..', '..', '.hosts', 'node_modules', '.bin', 'codex');

const toml = (value) => JSON.stringify(value);
const tokenVar = (name) => `CATSIM_TOKEN_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
const lines = [
  'model = "catsim"',
  'model_provider = "catsim"',
  'approval_policy = "never"',
  'sandbox_mode = "read-only"',
  'check_for_update_on_startup = false',
  '',
  '[history]',
  'persistence = "none"',
  '',
  '[model_providers.catsim]',
  'name = "catsim"',
  `base_url = ${toml(`${modelUrl}/v1`)}`,
  'wire_api = "responses"',
  'requires_openai_auth = false',
  '',
];
const env = { ...process.env };
for (const server of servers) {
  lines.push(`[mcp_servers.${toml(server.name)}]`);
  if (server.transport === 'http') {
    lines.push(`url = ${toml(server.url)}`, `bearer_token_env_var = ${toml(tokenVar(server.name))}`);
    env[tokenVar(server.name)] = server.credentials.token;
  } else {
    lines.push(`command = ${toml(server.command)}`, `args = ${toml(server.args)}`);
    lines.push(
      `env = { ${Object.entries(server.env ?? {})
        .map(([k, v]) => `${k} = ${toml(v)}`)
        .join(', ')} }`,
    );
  }
  lines.push('default_tools_approval_mode = "approve"', '');
}

const home = mkdtempSync(join(tmpdir(), 'catsim-codex-home-'));
writeFileSync(join(home, 'config.toml'), `${lines.join('\n')}\n`);
const child = spawn(codex, ['exec', '--skip-git-repo-check', 'Do the task with the tools you have.'], {
  cwd: home,
  env: { ...env, CODEX_HOME: home },
  stdio: ['ignore', 'inherit', 'inherit'],
});
child.on('error', (error) => {
  console.error(`codex-cli-host: cannot run ${codex}: ${error.message}`);
  rmSync(home, { recursive: true, force: true });
  process.exit(127);
});
child.on('exit', (code, signal) => {
  rmSync(home, { recursive: true, force: true });
  process.exit(code ?? (signal === null ? 1 : 128));
});
