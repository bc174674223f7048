/**
 * The black-box report folder (`blackbox/reports.ts`): one folder for several hosts and re-runs
 * (the index merges, a re-run replaces its row in place), reports moved whole to a fallback folder
 * when a write fails, and one writer per folder (`cli/output.ts` `lockFolder`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportFolder, writeReports, type ReportFs } from '../blackbox/reports.ts';
import type { CaseRun } from '../blackbox/run-case.ts';
import { InputError } from '../cli/errors.ts';
import { lockFolder, REPORT_FILES } from '../cli/output.ts';

/** A case run with nothing but what the reports read. */
function run(agent: string, name: string, outcome: CaseRun['outcome'], line = `${name}: ${outcome}`): CaseRun {
  return {
    agent,
    case: name,
    transport: 'stdio',
    outcome,
    line,
    violations: [],
    hostFailure: null,
    steps: [],
    header: { kind: 'header' } as unknown as CaseRun['header'],
    events: [],
    wireLog: [],
    stderr: '',
  };
}

const rerun = (r: CaseRun): string => `catsim host-test --agent ${r.agent} --cases ${r.case} -- host`;

/** An in-memory file system; writes under a path starting with `failUnder` throw ENOSPC. */
function memoryFs(failUnder?: string): ReportFs & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return {
    files,
    mkdirSync: () => undefined,
    writeFileAtomically: (path, text) => {
      if (failUnder !== undefined && path.startsWith(failUnder))
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      files.set(path, text);
    },
    readFileSync: (path) => {
      const text = files.get(path);
      if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      return text;
    },
  };
}

function index(fs: { files: Map<string, string> }, dir: string): string[] {
  const parsed = JSON.parse(fs.files.get(join(dir, 'index.json')) as string) as {
    runs: Array<{ agent: string; case: string; outcome: string }>;
  };
  return parsed.runs.map((row) => `${row.agent} ${row.case} ${row.outcome}`);
}

describe('one --out folder for several hosts and re-runs', () => {
  it('a second host adds its column; a re-run of one case replaces its row in place', () => {
    const fs = memoryFs();
    const warnings: string[] = [];
    writeReports(
      new ReportFolder('/r', (line) => warnings.push(line), fs),
      [run('py', 'empty-cursor', 'FAILED'), run('py', 'full-walk', 'OK')],
      rerun,
    );
    writeReports(new ReportFolder('/r', (line) => warnings.push(line), fs), [run('go', 'full-walk', 'OK')], rerun);
    writeReports(new ReportFolder('/r', (line) => warnings.push(line), fs), [run('py', 'empty-cursor', 'OK')], rerun);
    expect(index(fs, '/r')).toEqual(['py empty-cursor OK', 'py full-walk OK', 'go full-walk OK']);
    expect(fs.files.get('/r/summary.md')).toBe(
      [
        '# catsim host-test',
        '',
        '| case | py | go |',
        '|---|---|---|',
        '| empty-cursor@stdio | OK |  |',
        '| full-walk@stdio | OK | OK |',
        '',
        '',
      ].join('\n'),
    );
    expect(fs.files.get('/r/junit.xml')).toContain('<testsuite name="go" tests="1" failures="0" skipped="0">');
    expect(warnings).toEqual([]);
  });

  it('keeps an earlier row only while its report is there, and reads its re-run command from the report when the index has none', () => {
    const fs = memoryFs();
    writeReports(
      new ReportFolder('/r', () => undefined, fs),
      [run('py', 'a', 'FAILED'), run('py', 'b', 'FAILED')],
      rerun,
    );
    fs.files.delete('/r/py/a@stdio.json');
    // An index written before rows carried `rerun`.
    const old = JSON.parse(fs.files.get('/r/index.json') as string) as { runs: Array<Record<string, unknown>> };
    for (const row of old.runs) delete row.rerun;
    fs.files.set('/r/index.json', JSON.stringify(old));
    writeReports(new ReportFolder('/r', () => undefined, fs), [run('go', 'a', 'OK')], rerun);
    expect(index(fs, '/r')).toEqual(['py b FAILED', 'go a OK']);
    expect(fs.files.get('/r/summary.md')).toContain(
      '- **py / b@stdio: FAILED**: b: FAILED\n  re-run: `catsim host-test --agent py --cases b -- host`',
    );
  });

  it('replaces an index of another schema or that is not JSON', () => {
    for (const text of ['{"schema":"other.v1","runs":[]}', '{ not json']) {
      const fs = memoryFs();
      fs.files.set('/r/index.json', text);
      writeReports(new ReportFolder('/r', () => undefined, fs), [run('py', 'a', 'OK')], rerun);
      expect(index(fs, '/r')).toEqual(['py a OK']);
    }
  });
});

describe('a report that cannot be written', () => {
  it("moves the whole run's reports to the fallback folder, with one line naming both", () => {
    const fs = memoryFs('/full');
    const warnings: string[] = [];
    const folder = new ReportFolder('/full', (line) => warnings.push(line), fs);
    writeReports(folder, [run('py', 'a', 'OK'), run('py', 'b', 'FAILED')], rerun);
    const fallback = join(tmpdir(), `catsim-reports-${process.pid}`);
    expect([folder.allWritten, folder.folder, folder.moved]).toEqual([false, fallback, fallback]);
    expect(warnings).toEqual([
      `catsim: could not write /full/py/a@stdio.trace.jsonl (ENOSPC); wrote this run's reports to ${fallback}/ instead`,
    ]);
    expect(index(fs, fallback)).toEqual(['py a OK', 'py b FAILED']);
    expect([...fs.files.keys()].map((path) => path.slice(fallback.length + 1)).sort()).toEqual([
      'index.json',
      'junit.xml',
      'py/a@stdio.json',
      'py/a@stdio.trace.jsonl',
      'py/b@stdio.json',
      'py/b@stdio.trace.jsonl',
      'summary.md',
    ]);
  });

  it('a failure part-way writes what was already written into the fallback too', () => {
    const fs = memoryFs();
    let writes = 0;
    const failsAfterOne: ReportFs = {
      ...fs,
      writeFileAtomically: (path, text) => {
        writes += 1;
        if (path.startsWith('/r') && writes > 1) throw Object.assign(new Error('read-only'), { code: 'EROFS' });
        fs.writeFileAtomically(path, text);
      },
    };
    const folder = new ReportFolder('/r', () => undefined, failsAfterOne);
    folder.write('py/a@stdio.json', 'A');
    folder.write('py/b@stdio.json', 'B');
    const fallback = join(tmpdir(), `catsim-reports-${process.pid}`);
    expect(Object.fromEntries(fs.files)).toEqual({
      '/r/py/a@stdio.json': 'A',
      [join(fallback, 'py/a@stdio.json')]: 'A',
      [join(fallback, 'py/b@stdio.json')]: 'B',
    });
  });

  it('says the reports are lost when the fallback fails too, and writes nothing more', () => {
    const fs = memoryFs('/');
    const warnings: string[] = [];
    const folder = new ReportFolder('/r', (line) => warnings.push(line), fs);
    writeReports(folder, [run('py', 'a', 'OK')], rerun);
    const fallback = join(tmpdir(), `catsim-reports-${process.pid}`);
    expect([folder.folder, folder.allWritten, fs.files.size]).toEqual([null, false, 0]);
    expect(warnings).toEqual([
      `catsim: could not write /r/py/a@stdio.trace.jsonl (ENOSPC), nor to ${fallback}/ (ENOSPC): the reports are lost`,
    ]);
  });
});

describe('one writer per report folder', () => {
  it('refuses a second catsim while the first holds the folder, and takes over the lock of one that is gone', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'catsim-lock-')), 'out', 'nested');
    const lock = join(dir, '.catsim-lock');
    const unlock = lockFolder('--out', dir);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    unlock();
    // A live process that is not this one holds the folder.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(lock, `${other.pid}\n`);
      let refusal: unknown;
      try {
        lockFolder('--out', dir);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(InputError);
      expect((refusal as Error).message).toBe(
        `--out ${dir} is being written by another catsim (process ${other.pid}): a second writer on the same folder would replace what the first writes; wait for it, or choose another path (lock: ${lock})`,
      );
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    // Its process is gone: the lock is taken over, and released again.
    const release = lockFolder('--out', dir);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    release();
    expect(() => readFileSync(lock, 'utf8')).toThrow(/ENOENT/);
    expect(dirname(lock)).toBe(dir);
  });

  it('REPORT_FILES writes whole files and makes missing folders', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'catsim-files-')), 'a', 'b');
    REPORT_FILES.mkdirSync(dir);
    REPORT_FILES.writeFileAtomically(join(dir, 'x.json'), '{}\n');
    expect(REPORT_FILES.readFileSync(join(dir, 'x.json'))).toBe('{}\n');
  });
});
