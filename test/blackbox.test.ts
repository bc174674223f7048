/**
 * Black-box mode end to end (issue 28): real hosts in their own processes against every case, on
 * both transports, with the exact outcome a person worked out for each; and hosts that never
 * connect, crash or leave children behind, which end HOST_FAILED within the case timeout with no
 * process or port left.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseTransports, loadCases, type BlackBoxCase } from '../blackbox/case.ts';
import { running } from '../blackbox/host-tree.ts';
import { runCase } from '../blackbox/run-case.ts';
import { traceText } from '../sim/trace/recorder.ts';
import { RUN_FROM, catsim } from './support/run-cli.ts';
import { startServe } from './support/serve.ts';

const ROOT = join(import.meta.dirname, '..');
const PYTHON_HOST = ['python3', join(ROOT, 'examples/blackbox-python-host/adapter.py')];
const TS_HOST = [process.execPath, join(ROOT, 'examples/blackbox-ts-host/host.mjs')];
const hasPython = spawnSync('python3', ['--version']).status === 0;

/** Outcome and violation codes per case, for every case of the transport in name order; each run's one line goes to `lines` (shown if the table differs). */
async function table(command: string[], transport: 'http' | 'stdio', lines: string[] = []): Promise<string[]> {
  const rows: string[] = [];
  for (const spec of loadCases().filter((c) => caseTransports(c, [transport]).length > 0)) {
    const run = await runCase(spec, 'test', transport, command);
    rows.push(
      `${spec.name} ${run.outcome}${run.violations.length === 0 ? '' : ` ${run.violations.map((v) => v.code).join(',')}`}`,
    );
    lines.push(`${run.outcome} ${run.line}`);
  }
  return rows;
}

/**
 * The Python host stops at a falsy cursor (so "" ends its walk after page 1, 2 of 5 tools) and
 * does not remember the cursors it followed (so it follows a repeat and a cycle until its
 * 50-page cap: 49 cursor requests, past pageCountMax 20); everything else it does right. In empty-cursor it never saw
 * classify (page 3), so it refuses the call locally: nothing reaches the server, no I9. A cursor
 * refused after a server restart (-32602) raises out of its walk and ends the process (exit 1).
 * It checks no descriptor, so it shows a model every planted defect (I5, once per defective tool).
 * It sends schema-invalid arguments and reports the server's -32602 as the step's error.
 */
const PYTHON_EXPECTED = [
  'change-between-pages OK',
  'change-during-relist OK',
  'cursor-cycle FAILED CURSOR_REQUESTED_TWICE,PAGE_LIMIT_EXCEEDED',
  'empty-cursor FAILED DISCLOSED_WITHOUT_WHOLE_LIST',
  'endless-pages OK',
  'full-walk OK',
  'guessed-name OK',
  'non-object-schema FAILED DEFECT_ADMITTED',
  'notification-burst OK',
  'planted-defects FAILED DEFECT_ADMITTED,DEFECT_ADMITTED,DEFECT_ADMITTED,DEFECT_ADMITTED',
  'removal-after-use OK',
  'repeated-cursor FAILED CURSOR_REQUESTED_TWICE,PAGE_LIMIT_EXCEEDED',
  'restart-mid-walk HOST_FAILED',
  'schema-invalid-arguments OK',
  'silent-change OK',
  'tenant-twins OK',
];

describe.skipIf(!hasPython)('the Python standard-library host', () => {
  it('gets the worked-out outcome in every case over stdio', async () => {
    const lines: string[] = [];
    expect(await table(PYTHON_HOST, 'stdio', lines), lines.join('\n')).toEqual(PYTHON_EXPECTED);
  }, 120_000);

  it('and over HTTP, where session-expiry runs too: it does not open a new session after the 404', async () => {
    const expected = [...PYTHON_EXPECTED];
    expected.splice(expected.indexOf('silent-change OK'), 0, 'session-expiry FAILED SESSION_NOT_RENEWED');
    const lines: string[] = [];
    expect(await table(PYTHON_HOST, 'http', lines), lines.join('\n')).toEqual(expected);
  }, 120_000);
});

describe('the TypeScript host on the SDK Client', () => {
  it('passes every case over stdio but the planted defects (it walks every page, stops at a cursor seen before, walks again after a refused cursor, re-lists after list_changed, refuses unlisted names)', async () => {
    // It checks no descriptor: it shows a model the four planted defects (I5), and the SDK's
    // listTools rejects a whole page for one input schema whose root is not an object (ZodError),
    // which ends its walk and the process.
    const lines: string[] = [];
    expect(await table(TS_HOST, 'stdio', lines), lines.join('\n')).toEqual(
      loadCases()
        .filter((spec) => spec.transports === undefined)
        .map((spec) =>
          spec.name === 'planted-defects'
            ? 'planted-defects FAILED DEFECT_ADMITTED,DEFECT_ADMITTED,DEFECT_ADMITTED,DEFECT_ADMITTED'
            : spec.name === 'non-object-schema'
              ? 'non-object-schema HOST_FAILED'
              : `${spec.name} OK`,
        ),
    );
  }, 120_000);

  it('a case whose step waits for what only an eager host brings about is UNDECIDED for this lazy host, not HOST_FAILED', async () => {
    // It re-lists only when a step needs the catalog, so a step held for a second list_changed
    // (which needs its second walk) is never released.
    const spec = loadCases('change-during-relist')[0] as BlackBoxCase;
    const [first, ...rest] = spec.steps;
    const held = {
      ...spec,
      timeoutMs: 3_000,
      steps: [{ ...first, after: { event: 'notification_delivered', server: 'alpha', count: 2 } }, ...rest],
    } as BlackBoxCase;
    const run = await runCase(held, 'test', 'stdio', TS_HOST, { stallMs: 0 });
    expect([run.outcome, run.line]).toEqual([
      'UNDECIDED',
      'change-during-relist: the host did not finish within 3000 ms: step 1 waited for 2 notification_delivered of alpha and the record holds 1, so the case could not go on (its process group was killed)',
    ]);
    // The same held step with the stall window on and a 60 s timeout: the host long-polls step 1
    // and sends nothing more, so the case ends UNDECIDED at the stall, with the step and its precondition.
    const stalled = await runCase({ ...held, timeoutMs: 60_000 }, 'test', 'stdio', TS_HOST, { stallMs: 1_000 });
    expect([stalled.outcome, stalled.line]).toEqual([
      'UNDECIDED',
      "change-during-relist: step 1 waited for 2 notification_delivered of alpha and the record holds 1, and the host sent nothing to the case's servers for 1000 ms (the stall window) while its adapter waited on that step, so the case could not go on (its process group was killed)",
    ]);
  }, 60_000);

  it('passes session-expiry over HTTP: on the 404 it opens a new session and retries the call, which the server then executes', async () => {
    const run = await runCase(loadCases('session-expiry')[0] as BlackBoxCase, 'test', 'http', TS_HOST);
    expect([run.outcome, run.steps.map((step) => step.status).join(',')]).toEqual(['OK', 'ok,ok,ok,ok']);
    expect(
      run.events
        .filter((event) => ['session_opened', 'disconnected', 'call_executed'].includes(event.type))
        .map((event) => event.type),
    ).toEqual(['session_opened', 'call_executed', 'disconnected', 'session_opened', 'call_executed']);
  }, 60_000);
});

/**
 * The MCP Inspector CLI, pinned (@modelcontextprotocol/inspector-cli 1.0.3), driven unchanged by
 * examples/blackbox-inspector-cli/adapter.sh: found in node_modules, or where CATSIM_INSPECTOR_CLI
 * says (its build/index.js, the CLI program the adapter runs); skipped when it is not installed.
 */
const INSPECTOR_CLI =
  process.env.CATSIM_INSPECTOR_CLI ?? join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');
const INSPECTOR_HOST = ['bash', join(ROOT, 'examples/blackbox-inspector-cli/adapter.sh')];

describe.skipIf(!existsSync(INSPECTOR_CLI))('the MCP Inspector CLI', () => {
  it('reads page 1 only and calls a name it was never shown: full-walk and guessed-name FAILED over stdio', async () => {
    // tools/list is one client.listTools() call (build/client/tools.js), with no nextCursor loop;
    // tools/call lists page 1 and calls the name whether or not that page held it.
    const rows: string[] = [];
    for (const name of ['full-walk', 'guessed-name']) {
      const spec = { ...(loadCases(name)[0] as BlackBoxCase), timeoutMs: 60_000 };
      const run = await runCase(spec, 'inspector', 'stdio', INSPECTOR_HOST);
      rows.push(`${name} ${run.outcome} ${run.violations.map((v) => v.code).join(',')}`);
    }
    // full-walk: it shows 3 of 7 tools (page 1) and calls archive, on a page it never read (executed).
    // guessed-name: the one page is whole; delete_all reaches the server, which refuses it.
    expect(rows).toEqual([
      'full-walk FAILED DISCLOSED_WITHOUT_WHOLE_LIST,UNDISCLOSED_TOOL_EXECUTED',
      'guessed-name FAILED UNDISCLOSED_TOOL_SENT',
    ]);
  }, 180_000);
});

/** full-walk with a 5 s timeout (long enough for a host's node to start on a loaded machine). */
function shortCase(): BlackBoxCase {
  return { ...(loadCases('full-walk')[0] as BlackBoxCase), timeoutMs: 5_000 };
}

/**
 * Whether nothing listens on loopback `port` any more: catsim binds it itself, trying every 100 ms
 * for up to 2 s. Binding rather than connecting, because a connect to a free port in the ephemeral
 * range can, rarely, connect to itself (TCP simultaneous open) and read as "still listening"; the
 * retries cover a kernel still closing the dead process's socket. (CI failed once on the connect.)
 */
async function refused(port: number): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt++) {
    if (await bindable(port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A host in a script, over HTTP: initializes alpha, then, while its adapter long-polls step 1,
 * sends `tools/list` without a cursor (page 1) `lists` times, `everyMs` apart; it posts `ok` for
 * the end step and exits 0. It prints its pid and the driver's port on stderr.
 */
function listingHost(lists: number, everyMs: number): string[] {
  const script =
    "const s=JSON.parse(process.env.CATSIM_SERVERS)[0];const h={'content-type':'application/json',accept:'application/json, text/event-stream',authorization:'Bearer '+s.credentials.token};" +
    'const d=process.env.CATSIM_DRIVER_URL;process.stderr.write(JSON.stringify({pid:process.pid,http:Number(new URL(d).port)}));' +
    "const post=async(m)=>{const r=await fetch(s.url,{method:'POST',headers:h,body:JSON.stringify(m)});if(!h['mcp-session-id'])h['mcp-session-id']=r.headers.get('mcp-session-id');return r.text();};" +
    "(async()=>{await post({jsonrpc:'2.0',id:0,method:'initialize',params:{protocolVersion:'2025-06-18',capabilities:{},clientInfo:{name:'lister',version:'1'}}});h['mcp-protocol-version']='2025-06-18';" +
    "await post({jsonrpc:'2.0',method:'notifications/initialized'});" +
    `(async()=>{for(let i=1;i<=${lists};i++){await post({jsonrpc:'2.0',id:i,method:'tools/list',params:{}});await new Promise((r)=>setTimeout(r,${everyMs}));}})();` +
    "for(;;){const r=await fetch(d+'/step?seq=1');if(r.status!==200)continue;const step=await r.json();" +
    "await fetch(d+'/result',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({seq:step.seq,status:'ok'})});process.exit(0);}})();";
  return [process.execPath, '-e', script];
}

describe('the stall window: a case that cannot go on ends at once, a host still working on the wire is not cut', () => {
  /** full-walk whose one step, `end`, is held until alpha has served `pages` pages, with a 60 s timeout. */
  function heldForPages(pages: number): BlackBoxCase {
    const spec = loadCases('full-walk')[0] as BlackBoxCase;
    return {
      ...spec,
      timeoutMs: 60_000,
      steps: [{ kind: 'end', after: { event: 'page_served', server: 'alpha', count: pages } }],
    };
  }

  it('a host that reads page 1 only and long-polls a step held for page 2: UNDECIDED with the stall line, nothing left behind', async () => {
    const run = await runCase(heldForPages(2), 'test', 'http', listingHost(1, 0), { stallMs: 1_000 });
    expect([run.outcome, run.line]).toEqual([
      'UNDECIDED',
      "full-walk: step 1 waited for 2 page_served of alpha and the record holds 1, and the host sent nothing to the case's servers for 1000 ms (the stall window) while its adapter waited on that step, so the case could not go on (its process group was killed)",
    ]);
    const left = JSON.parse(run.stderr) as { pid: number; http: number };
    expect([running(left.pid), await refused(left.http)]).toEqual([false, true]);
  }, 30_000);

  it('a host still listing (page 1 every 100 ms) is not cut while its step waits for 25 pages, longer than the 1 s window', async () => {
    const run = await runCase(heldForPages(25), 'test', 'http', listingHost(25, 100), { stallMs: 1_000 });
    expect([run.outcome, run.line, run.events.filter((event) => event.type === 'page_served').length]).toEqual([
      'OK',
      'full-walk: no violation',
      25,
    ]);
  }, 30_000);
});

describe('bad hosts are HOST_FAILED with one line, within the timeout, leaving nothing behind', () => {
  it('a host that never connects and leaves a child sleeping: HOST_FAILED, the child is killed, the ports are closed', async () => {
    // The host prints its child's pid and the ports it was given, then waits forever.
    const script =
      "const {spawn}=require('node:child_process');const c=spawn('sleep',['60'],{stdio:'ignore'});" +
      'const u=new URL(process.env.CATSIM_DRIVER_URL);const s=JSON.parse(process.env.CATSIM_SERVERS);' +
      "process.stderr.write(JSON.stringify({child:c.pid,http:Number(u.port),stdio:Number(s[0].args[1].split(':')[1])}));setInterval(()=>{},1e6);";
    const run = await runCase(shortCase(), 'test', 'stdio', [process.execPath, '-e', script]);
    expect(run.outcome).toBe('HOST_FAILED');
    expect(run.line).toBe(
      'full-walk: HOST_FAILED: the host did not finish within 5000 ms (it never connected); its process group was killed',
    );
    const left = JSON.parse(run.stderr) as { child: number; http: number; stdio: number };
    expect(running(left.child)).toBe(false);
    expect(await refused(left.http)).toBe(true);
    expect(await refused(left.stdio)).toBe(true);
  }, 20_000);

  it('a host that leaves processes outside its group (a setsid child holding a port, an orphaned grandchild in another session) is HOST_FAILED, and both are gone with the port', async () => {
    // The host starts, with setsid (detached), a node that listens on a loopback port and prints it,
    // and `sh -c 'sleep 60 & echo $!'`, whose sleep is orphaned when sh exits; it prints the pids and
    // the port, then exits 0.
    const listener = "require('net').createServer().listen(0,'127.0.0.1',function(){console.log(this.address().port)})";
    const script =
      "const {spawn}=require('node:child_process');const out={};const done=()=>{if(out.port&&out.grandchild){process.stderr.write(JSON.stringify(out));process.exit(0);}};" +
      `const c=spawn(process.execPath,['-e',${JSON.stringify(listener)}],{detached:true,stdio:['ignore','pipe','ignore']});out.child=c.pid;` +
      "c.stdout.on('data',(d)=>{out.port=Number(String(d).trim());done();});" +
      "const s=spawn('sh',['-c','sleep 60 & echo $!'],{detached:true,stdio:['ignore','pipe','ignore']});" +
      "s.stdout.on('data',(d)=>{out.grandchild=Number(String(d).trim());done();});";
    const run = await runCase(shortCase(), 'test', 'stdio', [process.execPath, '-e', script]);
    expect([run.outcome, run.line]).toEqual([
      'HOST_FAILED',
      'full-walk: HOST_FAILED: the host exited and left 2 processes running 1000 ms later (catsim killed them)',
    ]);
    const left = JSON.parse(run.stderr) as { child: number; grandchild: number; port: number };
    expect([running(left.child), running(left.grandchild), await refused(left.port)]).toEqual([false, false, true]);
  }, 20_000);

  it('a host that connects and then hangs is HOST_FAILED at the timeout, naming the pending step', async () => {
    // Initializes over HTTP (session opened), then never asks the driver for a step.
    const script =
      "const s=JSON.parse(process.env.CATSIM_SERVERS)[0];const h={'content-type':'application/json',accept:'application/json, text/event-stream',authorization:'Bearer '+s.credentials.token};" +
      "(async()=>{const r=await fetch(s.url,{method:'POST',headers:h,body:JSON.stringify({jsonrpc:'2.0',id:1,method:'initialize',params:{protocolVersion:'2025-06-18',capabilities:{},clientInfo:{name:'hang',version:'1'}}})});await r.text();" +
      "h['mcp-session-id']=r.headers.get('mcp-session-id');h['mcp-protocol-version']='2025-06-18';await (await fetch(s.url,{method:'POST',headers:h,body:JSON.stringify({jsonrpc:'2.0',method:'notifications/initialized'})})).text();setInterval(()=>{},1e6);})();";
    const run = await runCase(shortCase(), 'test', 'http', [process.execPath, '-e', script]);
    expect([run.outcome, run.line]).toEqual([
      'HOST_FAILED',
      'full-walk: HOST_FAILED: the host did not finish within 5000 ms (step 1 of 3 pending); its process group was killed',
    ]);
    expect(run.events.filter((event) => event.type === 'session_opened')).toHaveLength(1);
  }, 20_000);

  it('a host that floods a server with tools/list is HOST_FAILED once past 500 requests, and gets errors, not pages, beyond them', async () => {
    const script =
      "const s=JSON.parse(process.env.CATSIM_SERVERS)[0];const h={'content-type':'application/json',accept:'application/json, text/event-stream',authorization:'Bearer '+s.credentials.token};" +
      "const post=async(m)=>{const r=await fetch(s.url,{method:'POST',headers:h,body:JSON.stringify(m)});if(!h['mcp-session-id'])h['mcp-session-id']=r.headers.get('mcp-session-id');return r.text();};" +
      "(async()=>{await post({jsonrpc:'2.0',id:0,method:'initialize',params:{protocolVersion:'2025-06-18',capabilities:{},clientInfo:{name:'flood',version:'1'}}});h['mcp-protocol-version']='2025-06-18';" +
      "await post({jsonrpc:'2.0',method:'notifications/initialized'});for(let i=1;i<=520;i++)await post({jsonrpc:'2.0',id:i,method:'tools/list',params:{}});})();";
    const run = await runCase({ ...shortCase(), timeoutMs: 15_000 }, 'test', 'http', [process.execPath, '-e', script]);
    expect([run.outcome, run.line]).toEqual([
      'HOST_FAILED',
      'full-walk: HOST_FAILED: the host flooded alpha with tools/list requests',
    ]);
    expect(run.events.filter((event) => event.type === 'page_served')).toHaveLength(500);
  }, 30_000);

  it('a host that writes garbage to its stdio server and exits is HOST_FAILED, and catsim goes on', async () => {
    // Launches the shim as its server, writes two lines that are not JSON-RPC, and exits 0.
    const garbage = JSON.stringify('garbage\n{"not": "json-rpc"}\n');
    const script =
      "const s=JSON.parse(process.env.CATSIM_SERVERS)[0];const c=require('node:child_process').spawn(s.command,s.args,{env:{...process.env,...s.env},stdio:['pipe','ignore','inherit']});" +
      `c.stdin.write(${garbage});c.stdin.end();c.on('exit',()=>process.exit(0));`;
    const run = await runCase(shortCase(), 'test', 'stdio', [process.execPath, '-e', script]);
    expect([run.outcome, run.line]).toEqual([
      'HOST_FAILED',
      'full-walk: HOST_FAILED: the host exited before the end step (0 of 3 steps done, never connected)',
    ]);
  }, 20_000);

  it('a host that crashes is HOST_FAILED with its exit code', async () => {
    const run = await runCase(shortCase(), 'test', 'http', [process.execPath, '-e', 'process.exit(7)']);
    expect([run.outcome, run.line]).toEqual([
      'HOST_FAILED',
      'full-walk: HOST_FAILED: the host exited with code 7 without connecting at step 1 of 3',
    ]);
  }, 20_000);

  it('a host command that does not exist is HOST_FAILED, not a crash of catsim', async () => {
    const run = await runCase(shortCase(), 'test', 'http', ['/nonexistent/catsim-host']);
    expect(run.outcome).toBe('HOST_FAILED');
    expect(run.line).toMatch(
      /^full-walk: HOST_FAILED: the host command could not start \(spawn \/nonexistent\/catsim-host ENOENT\)$/,
    );
  }, 20_000);
});

describe.skipIf(!hasPython)('what is deterministic on a real clock', () => {
  it('the same host on the same case writes byte-identical traces, on either transport', async () => {
    const spec = loadCases('change-between-pages')[0] as BlackBoxCase;
    const texts: string[] = [];
    for (const transport of ['stdio', 'stdio', 'http', 'http'] as const) {
      const run = await runCase(spec, 'test', transport, PYTHON_HOST);
      texts.push(traceText(run.header, run.events));
    }
    expect(new Set(texts).size).toBe(1);
    // Walk 1 pages 1-2 of revision 1, the change and its notification after page 2, page 3 served
    // from revision 2, the host's whole fresh walk, then its call of export and its disclosure.
    expect(
      texts[0]
        ?.trim()
        .split('\n')
        .slice(1)
        .map((line) => (JSON.parse(line) as { type: string }).type),
    ).toEqual([
      'server_up',
      'revision',
      'session_opened',
      'page_served',
      'page_served',
      'revision',
      'notification_sent',
      'notification_delivered',
      'page_served',
      'page_served',
      'page_served',
      'page_served',
      'call_sent',
      'call_executed',
      'disclosure',
      'round_end',
    ]);
  }, 60_000);
});

describe.skipIf(!hasPython)('catsim host-test and catsim judge on the command line', () => {
  it('exit 1 with one line per case and the reports; judge re-judges a saved trace to the same outcome', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'catsim-host-test-')), 'out');
    const run = await catsim([
      'host-test',
      '--agent',
      'py',
      '--cases',
      '*-cursor',
      '--transport',
      'stdio',
      '--out',
      out,
      '--',
      ...PYTHON_HOST,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout.split('\n').slice(0, 3)).toEqual([
      'FAILED      empty-cursor@stdio: the host disclosed 2 tools of alpha for acme.dev (seq 4) without ever having walked a whole list (page 1 to a last page) of that session',
      'FAILED      repeated-cursor@stdio: walk 1 without a scanId (alpha acme.dev) requested cursor "WzAsMiwwXQ" at seq 4 and again at seq 5',
      `0 of 2 cases pass (OK or NON-STRICT); reports in ${out}/ (summary.md, index.json, junit.xml)`,
    ]);
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as {
      runs: Array<{ case: string; outcome: string; trace: string }>;
    };
    expect(index.runs.map((entry) => `${entry.case} ${entry.outcome}`)).toEqual([
      'empty-cursor FAILED',
      'repeated-cursor FAILED',
    ]);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(
      '<testsuite name="py" tests="2" failures="2" skipped="0">',
    );
    const judged = await catsim(['judge', join(out, index.runs[1]?.trace as string)]);
    expect([judged.code, judged.stdout.trim().split('\n').at(-1)]).toEqual([1, 'outcome: FAILED']);
    const checked = await catsim(['check', join(out, index.runs[1]?.trace as string)]);
    expect([checked.code, checked.stderr.trim().split('\n').at(-1)]).toEqual([
      2,
      `catsim: ${join(out, index.runs[1]?.trace as string)}: the trace of black-box case repeated-cursor holds no core observations: judge it with catsim judge`,
    ]);
  }, 60_000);

  it('with a baseline that expects both failures the run passes (exit 0), each line marked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-baseline-'));
    writeFileSync(
      join(dir, 'baseline.json'),
      JSON.stringify({
        expected: { 'empty-cursor@stdio': 'FAILED', 'repeated-cursor@stdio': 'FAILED', 'full-walk@http': 'FAILED' },
      }),
    );
    const run = await catsim([
      'host-test',
      '--agent',
      'py',
      '--cases',
      '*-cursor',
      '--transport',
      'stdio',
      '--baseline',
      join(dir, 'baseline.json'),
      '--out',
      join(dir, 'out'),
      '--',
      ...PYTHON_HOST,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').map((line) => line.endsWith('[expected by the baseline]'))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(run.stdout.split('\n')[2]).toBe(
      `2 of 2 cases pass (OK, NON-STRICT, or as the baseline expects); reports in ${join(dir, 'out')}/ (summary.md, index.json, junit.xml)`,
    );
  }, 60_000);

  it('--jobs 3 runs the cases at once and writes what a serial run writes: the same lines in case order and byte-identical reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-jobs-'));
    const hostTest = (jobs: string, out: string) =>
      catsim([
        'host-test',
        '--agent',
        'py',
        '--cases',
        'c*',
        '--transport',
        'stdio',
        '--jobs',
        jobs,
        '--out',
        join(dir, out),
        '--',
        ...PYTHON_HOST,
      ]);
    const serial = await hostTest('1', 'serial');
    const concurrent = await hostTest('3', 'concurrent');
    const files = (out: string): string[] =>
      readdirSync(join(dir, out), { recursive: true, encoding: 'utf8' })
        .sort()
        .map(
          (file) =>
            `${file}\n${statSync(join(dir, out, file)).isFile() ? readFileSync(join(dir, out, file), 'utf8') : ''}`,
        );
    expect(concurrent.stdout.replaceAll('concurrent', 'serial')).toBe(serial.stdout);
    expect(serial.stdout.split('\n').map((line) => line.slice(0, 40))).toEqual([
      'OK          change-between-pages@stdio',
      'OK          change-during-relist@stdio',
      'FAILED      cursor-cycle@stdio: walk 1 w',
      '2 of 3 cases pass (OK or NON-STRICT); re',
      '',
    ]);
    expect(files('concurrent')).toEqual(files('serial'));
  }, 120_000);

  it('bad input is one line and exit 2: a glob that matches no case or only cases of another transport, an --out that is a file, no host command, a malformed baseline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-baseline-'));
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify({ expected: { 'full-walk@http': 'OK' } }));
    const bad = await catsim(['host-test', '--agent', 'py', '--baseline', join(dir, 'baseline.json'), '--', 'true']);
    expect([bad.code, bad.stderr.trim().split('\n').at(-1)]).toEqual([
      2,
      `catsim: --baseline ${join(dir, 'baseline.json')}: entry full-walk@http expects "OK", not one of FAILED, UNSUPPORTED, HOST_FAILED, UNDECIDED`,
    ]);
    const none = await catsim(['host-test', '--agent', 'py', '--cases', 'nothing-*', '--', 'true']);
    expect([none.code, none.stderr.trim().split('\n').at(-1)]).toEqual([
      2,
      `catsim: --cases "nothing-*" matches no case in ${join(ROOT, 'scenarios', 'cases')}`,
    ]);
    const other = await catsim([
      'host-test',
      '--agent',
      'py',
      '--cases',
      'session-*',
      '--transport',
      'stdio',
      '--',
      'true',
    ]);
    expect([other.code, other.stderr.trim().split('\n').at(-1)]).toEqual([
      2,
      'catsim: --cases "session-*": no case selected runs on stdio (session-expiry: http)',
    ]);
    writeFileSync(join(dir, 'reports'), '');
    const file = await catsim(['host-test', '--agent', 'py', '--out', join(dir, 'reports'), '--', 'true']);
    expect([file.code, file.stderr.trim().split('\n').at(-1)]).toEqual([
      2,
      `catsim: --out ${join(dir, 'reports')}: cannot write there (it is not a directory)`,
    ]);
    // The case timeout, 15000 ms times 1000000, overflowed Node's timer, which then fired after 1 ms.
    const factor = await catsim([
      'host-test',
      '--agent',
      'py',
      '--cases',
      'full-walk',
      '--timeout-factor',
      '1000000',
      '--',
      'true',
    ]);
    expect([factor.code, factor.stderr]).toEqual([
      2,
      'catsim: --timeout-factor 1000000 is too large: case full-walk would wait 15000000000 ms, and a timer waits at most 2147483647 ms (give at most 143165)\n',
    ]);
    const bare = await catsim(['host-test', '--agent', 'py']);
    expect([bare.code, bare.stderr.trim().split('\n').at(-1)]).toEqual([
      2,
      'catsim: host-test needs the host command after --, e.g. catsim host-test --agent mine -- python3 host.py',
    ]);
  }, 60_000);
});

describe('host-test interrupted', () => {
  // Before, Ctrl-C killed catsim alone: the host (in its own process group) ran on, and no report
  // was written, not even of the cases already done.
  it('Ctrl-C cuts off the host under way, reports the cases done, and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'catsim-interrupt-'));
    const host = join(dir, 'host.sh');
    // full-walk@http: exits at once (HOST_FAILED); full-walk@stdio: writes its pid and waits.
    writeFileSync(
      host,
      `#!/bin/sh\nif [ -e ${dir}/first ]; then echo $$ > ${dir}/pid.tmp; mv ${dir}/pid.tmp ${dir}/pid; exec sleep 600; fi\ntouch ${dir}/first\n`,
    );
    chmodSync(host, 0o755);
    const out = join(dir, 'out');
    const child = spawn(
      process.execPath,
      ['bin/catsim.mjs', 'host-test', '--agent', 'i', '--cases', 'full-walk', '--out', out, '--', host],
      { cwd: ROOT, env: { ...process.env, CATSIM_RUN_FROM: RUN_FROM }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    while (!existsSync(join(dir, 'pid'))) await new Promise((resolve) => setTimeout(resolve, 50));
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    expect(running(pid)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    expect(running(pid)).toBe(false);
    expect(stdout.split('\n')).toEqual([
      'HOST_FAILED full-walk@http: HOST_FAILED: the host exited before the end step (0 of 3 steps done, never connected)',
      `0 of 1 cases pass (OK or NON-STRICT); reports in ${out}/ (summary.md, index.json, junit.xml)`,
      'interrupted after 1 of 2 cases: the 1 above are reported, the others were cut off or never started',
      '',
    ]);
    expect(stderr).toBe('catsim: interrupted: ending the hosts of the cases under way\n');
    expect(readdirSync(join(out, 'i')).sort()).toEqual(['full-walk@http.json', 'full-walk@http.trace.jsonl']);
  }, 60_000);
});

describe('catsim serve keeps a case up for a host started separately', () => {
  it('a port in use is one line and exit 2', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const serve = await catsim(['serve', '--case', 'full-walk', '--port', String(port)]);
    taken.close();
    expect([serve.code, serve.stderr.trim().split('\n').at(-1)]).toEqual([
      2,
      'catsim: cannot listen on 127.0.0.1 (port in use): choose another --port / --stdio-port',
    ]);
  }, 30_000);

  // Its usage line was "catsim host-test", with no word of the host command after --.
  it('host-test --help shows where the host command goes', async () => {
    const help = await catsim(['host-test', '--help']);
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([0, 'catsim host-test --agent NAME [options] -- CMD ARGS']);
  }, 30_000);

  // `--agent ..` wrote the reports beside --out, then failed (exit 3); serve took any agent name, `../esc` too.
  it('an agent name that is not a plain folder name is refused by host-test and serve', async () => {
    for (const command of [
      ['host-test', '--agent', '..', '--', 'true'],
      ['serve', '--case', 'full-walk', '--agent', '../esc'],
    ]) {
      const refused = await catsim(command);
      expect([refused.code, refused.stderr]).toEqual([
        2,
        `catsim: --agent ${JSON.stringify(command[command.indexOf('--agent') + 1])}: use letters, digits, '-', '_' and '.', beginning with a letter, a digit or '_'\n`,
      ]);
    }
  }, 30_000);

  it('a port past 65535 is one line naming the option', async () => {
    const serve = await catsim(['serve', '--case', 'full-walk', '--stdio-port', '99999']);
    expect([serve.code, serve.stderr]).toEqual([2, 'catsim: --stdio-port is not a port: at most 65535, got 99999\n']);
  }, 30_000);

  it("an unknown case names serve's own option, --case", async () => {
    const serve = await catsim(['serve', '--case', 'nope']);
    expect([serve.code, serve.stderr]).toEqual([
      2,
      `catsim: --case "nope" matches no case in ${join(ROOT, 'scenarios', 'cases')}\n`,
    ]);
  }, 30_000);

  // The HTTP listener was already up when the stdio port failed, and kept serve alive after its error line.
  it('a stdio port in use is one line and exit 2, and serve ends', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const serve = await catsim(['serve', '--case', 'full-walk', '--stdio-port', String(port)], { timeoutMs: 20_000 });
    taken.close();
    expect([serve.code, serve.stderr.trim().split('\n').at(-1)]).toEqual([
      2,
      'catsim: cannot listen on 127.0.0.1 (port in use): choose another --port / --stdio-port',
    ]);
  }, 30_000);

  it('prints the environment, serves the TS host started with it, and judges the case when the host ends it', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'catsim-serve-')), 'out');
    const serve = await startServe(['--case', 'full-walk', '--out', out]);
    const env = serve.env;
    expect(Object.keys(env)).toEqual(['CATSIM_SERVERS', 'CATSIM_DRIVER_URL', 'CATSIM_CASE']);
    const host = spawnSync(TS_HOST[0] as string, TS_HOST.slice(1), {
      env: { ...process.env, ...env },
      timeout: 30_000,
    });
    // The host's stderr is the message if it fails (it failed twice inside a loaded full run of this file, never alone).
    expect(host.status, `${host.stderr}`).toBe(0);
    expect(await serve.exited()).toBe(0);
    expect(serve.stdout().split('\n').slice(-3)).toEqual(['OK full-walk: no violation', `reports in ${out}/`, '']);
  }, 60_000);

  it('has the stall window: a host that reads page 1 only while its step waits for a notification ends the case UNDECIDED, with the stall line', async () => {
    // change-between-pages holds step 1 until alpha's list_changed, which fires after page 2 of walk 1.
    const out = join(mkdtempSync(join(tmpdir(), 'catsim-serve-')), 'out');
    const serve = await startServe(['--case', 'change-between-pages', '--stall-ms', '1000', '--out', out]);
    const [program, ...rest] = listingHost(1, 0);
    const host = spawn(program as string, rest, { env: { ...process.env, ...serve.env }, stdio: 'ignore' });
    const code = await serve.exited();
    host.kill('SIGKILL');
    const report = JSON.parse(readFileSync(join(out, 'served', 'change-between-pages@http.json'), 'utf8')) as {
      outcome: string;
      rerun: string;
    };
    expect([code, serve.stdout().split('\n').slice(-3), report.outcome, report.rerun]).toEqual([
      1,
      [
        "UNDECIDED change-between-pages: step 1 waited for 1 notification_delivered of alpha and the record holds 0, and the host sent nothing to the case's servers for 1000 ms (the stall window) while its adapter waited on that step, so the case could not go on (serve ended the case and closed its servers)",
        `reports in ${out}/`,
        '',
      ],
      'UNDECIDED',
      'catsim serve --case change-between-pages --transport http --stall-ms 1000',
    ]);
  }, 60_000);

  it('times a host out from its first contact: one that asks the driver for step 1 and never opens a session is HOST_FAILED at the case timeout', async () => {
    // full-walk (15 s timeout): step 1 waits for a walk; the host asks for it once (204, poll
    // again), then does nothing. Before, serve counted its timeout from the first session only and
    // waited for ever.
    const out = join(mkdtempSync(join(tmpdir(), 'catsim-serve-')), 'out');
    const serve = await startServe(['--case', 'full-walk', '--out', out]);
    const driver = serve.env.CATSIM_DRIVER_URL as string;
    const asked = await fetch(`${driver}/step?seq=1`);
    const code = await serve.exited();
    expect([asked.status, code, serve.stdout().split('\n').slice(-3)]).toEqual([
      204,
      1,
      [
        'HOST_FAILED full-walk: HOST_FAILED: the host did not finish within 15000 ms of its first contact (a session, a step asked or a model request)',
        `reports in ${out}/`,
        '',
      ],
    ]);
  }, 60_000);
});
