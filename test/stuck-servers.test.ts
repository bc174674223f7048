/**
 * Issue 14 item 1: a stdio server that never answers, ignores SIGTERM or babbles garbage must
 * not keep catsim alive. After `--timeout` catsim prints its one line, ends the server's whole
 * process group (SIGTERM, then SIGKILL after 500 ms) and exits 2. These run the real executable,
 * so a catsim that waited for its child would never exit: `catsim()` then kills it after 60 s
 * and the exit code is not 2. Nothing here measures time; the servers write their pid to a file,
 * and each test checks that the process is gone once catsim has exited.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catsim, RUN_FROM } from './support/run-cli.ts';

const node = process.execPath;
const RAW = 'test/support/raw-stdio-server.mjs';
const NOT_MCP = '(not an MCP server, or it writes something else on stdout)';

let dir = '';
let pidFiles: string[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'catsim-stuck-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A failed test must not leave a process behind that only SIGKILL ends.
afterEach(() => {
  for (const file of pidFiles) {
    const pid = pidOf(file);
    if (pid !== undefined && !isGone(pid)) process.kill(pid, 'SIGKILL');
  }
  pidFiles = [];
});

/** A fresh pid file for a server started by one test. */
function pidFile(name: string): string {
  const file = join(dir, `${name}.pid`);
  pidFiles.push(file);
  return file;
}

function pidOf(file: string): number | undefined {
  try {
    return Number(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * True when no process `pid` runs. A zombie counts as gone: it has exited and only waits for its
 * parent (init, once a wrapper shell died) to collect its status.
 */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') === true;
  } catch {
    return true;
  }
}

describe('a stdio server that never answers initialize is ended, and catsim exits 2', () => {
  it('discover: a server that reads stdin, never answers and ignores SIGTERM', async () => {
    const file = pidFile('mute');
    const { code, stdout, stderr } = await catsim([
      'discover',
      '--timeout',
      '1000',
      '--stdio',
      `${node} ${RAW} mute --ignore-term --pid-file ${file}`,
    ]);
    expect(stderr).toBe(
      `catsim: server "${node} ${RAW} mute --ignore-term --pid-file ${file}" did not answer initialize within 1000 ms ${NOT_MCP}\n`,
    );
    expect(stdout).toBe('');
    expect(code).toBe(2);
    expect(isGone(pidOf(file) as number)).toBe(true);
  });

  it('capture: the same server started through a shell, whose grandchild holds the pipes', async () => {
    const file = pidFile('mute-sh');
    const { code, stderr } = await catsim([
      'capture',
      '--timeout',
      '1000',
      '--stdio',
      `sh -c '${node} ${RAW} mute --ignore-term --pid-file ${file}; true'`,
    ]);
    expect(stderr).toBe(
      `catsim: server "sh -c '${node} ${RAW} mute --ignore-term --pid-file ${file}; true'" did not answer initialize within 1000 ms ${NOT_MCP}\n`,
    );
    expect(code).toBe(2);
    expect(isGone(pidOf(file) as number)).toBe(true);
  });

  it('discover: a server that writes garbage on stdout every 50 ms and ignores SIGTERM, through a shell', async () => {
    const file = pidFile('babble');
    const { code, stderr } = await catsim([
      'discover',
      '--timeout',
      '1000',
      '--stdio',
      `sh -c '${node} ${RAW} babble --ignore-term --pid-file ${file}; true'`,
    ]);
    expect(stderr).toBe(
      `catsim: server "sh -c '${node} ${RAW} babble --ignore-term --pid-file ${file}; true'" did not answer initialize within 1000 ms ${NOT_MCP}\n`,
    );
    expect(code).toBe(2);
    expect(isGone(pidOf(file) as number)).toBe(true);
  });
});

describe('a stdio server that answers initialize and then never answers tools/list is ended too', () => {
  it('discover: the scan times out, the server (ignoring SIGTERM) is killed, exit 2', async () => {
    const file = pidFile('silent');
    const command = `${node} ${RAW} silent --ignore-term --pid-file ${file}`;
    const { code, stdout, stderr } = await catsim(['discover', '--timeout', '1000', '--stdio', command]);
    expect(stderr).toBe(
      `catsim: server "${command}" gave no snapshot: discovery ended INCOMPLETE TIMEOUT (the scan took longer than 1000 ms)\n`,
    );
    expect(stdout).toBe('');
    expect(code).toBe(2);
    expect(isGone(pidOf(file) as number)).toBe(true);
  });

  it('capture: page 1 gets no answer, the server is killed, exit 2', async () => {
    const file = pidFile('silent-capture');
    const command = `${node} ${RAW} silent --ignore-term --pid-file ${file}`;
    const { code, stderr } = await catsim(['capture', '--timeout', '1000', '--stdio', command]);
    expect(stderr).toBe(`catsim: server "${command}" failed tools/list page 1: no answer within 1000 ms\n`);
    expect(code).toBe(2);
    expect(isGone(pidOf(file) as number)).toBe(true);
  });
});

describe('a stdio server that works is still ended when catsim is done', () => {
  it('discover: exit 0 with the snapshot, and the server (ignoring SIGTERM) is gone afterwards', async () => {
    const file = pidFile('ok');
    const { code, stdout } = await catsim([
      'discover',
      '--timeout',
      '10000',
      '--stdio',
      `${node} ${RAW} ok --ignore-term --pid-file ${file}`,
    ]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).snapshot.tools.map((tool: { name: string }) => tool.name)).toEqual(['echo']);
    expect(isGone(pidOf(file) as number)).toBe(true);
  });
});

describe('Ctrl-C while a stdio server starts ends the server too', () => {
  /**
   * Starts `catsim ARGS`, sends it `signal` once the server has written `pidFile` (it is then
   * running and catsim waits for its answer to initialize), and resolves with how catsim ended.
   */
  function interrupted(
    args: string[],
    pidFile: string,
    signal: NodeJS.Signals,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['bin/catsim.mjs', ...args], {
        env: { ...process.env, CATSIM_RUN_FROM: RUN_FROM },
        stdio: 'ignore',
      });
      const poll = setInterval(() => {
        if (!existsSync(pidFile) || readFileSync(pidFile, 'utf8') === '') return;
        clearInterval(poll);
        child.kill(signal);
      }, 50);
      child.on('exit', (code, how) => {
        clearInterval(poll);
        resolve({ code, signal: how });
      });
    });
  }

  it('discover: SIGINT during initialize of a server that ignores SIGTERM: catsim ends by SIGINT and the server is gone', async () => {
    const file = pidFile('interrupted');
    const ended = await interrupted(
      ['discover', '--timeout', '30000', '--stdio', `${node} ${RAW} mute --ignore-term --pid-file ${file}`],
      file,
      'SIGINT',
    );
    expect(ended).toEqual({ code: null, signal: 'SIGINT' });
    expect(isGone(pidOf(file) as number)).toBe(true);
  });

  it('capture: SIGTERM during initialize (a CI timeout): catsim ends by SIGTERM and the server is gone', async () => {
    const file = pidFile('terminated');
    const ended = await interrupted(
      ['capture', '--timeout', '30000', '--stdio', `${node} ${RAW} mute --pid-file ${file}`],
      file,
      'SIGTERM',
    );
    expect(ended).toEqual({ code: null, signal: 'SIGTERM' });
    expect(isGone(pidOf(file) as number)).toBe(true);
  });
});
