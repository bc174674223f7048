/**
 * Keeps `docs/digests.json` current (test/support/campaign-digests.ts says what it holds).
 *
 *   npx tsx scripts/digests.ts                      # run the checked campaigns again; rewrite their
 *                                                   # digests; mark recorded ones stale if they moved
 *   npx tsx scripts/digests.ts --record --seed 1 --rounds 300
 *                                                   # run `catsim run ARGS --quiet` as a user does and
 *                                                   # record it (digest, commit, date, wall, load)
 *
 * Run the first after a change that moves traces (the test says which digest moved), commit the
 * file with the change, and say so in the commit message with the new digests. `--record` runs the
 * built CLI (`node bin/catsim.mjs`, dist/ when fresh) with its default workers; run it `nice`d on
 * a shared machine. Prints what changed; exit 0, or 2 with one line for a wrong argument.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import {
  basisOf,
  campaignDigestOf,
  digestsText,
  DIGESTS_PATH,
  readDigests,
  type CheckedDigest,
  type RecordedDigest,
} from '../test/support/campaign-digests.ts';

const args = process.argv.slice(2);
const file = readDigests();

if (args[0] === '--record') {
  record(args.slice(1));
} else if (args.length > 0) {
  process.stderr.write(
    `digests: unknown arguments: ${args.join(' ')} (give none, or --record followed by catsim run's arguments)\n`,
  );
  process.exit(2);
} else {
  await refresh();
}
writeFileSync(DIGESTS_PATH, digestsText(file));

/** Runs every checked campaign again, rewrites its digest, and marks recorded entries whose basis moved. */
async function refresh(): Promise<void> {
  const checked: CheckedDigest[] = [];
  for (const entry of file.checked) {
    const digest = await campaignDigestOf(entry.args);
    process.stdout.write(
      `${digest === entry.digest ? 'same ' : 'MOVED'} catsim run ${entry.args.join(' ')}: ${digest}\n`,
    );
    checked.push({ args: entry.args, digest });
  }
  file.checked = checked;
  const basis = basisOf(checked);
  file.recorded = file.recorded.map((entry) => {
    if (entry.basis === basis) return withoutStale(entry);
    if (entry.stale !== true)
      process.stdout.write(
        `stale now: ${entry.command} (${entry.digest.slice(0, 16)}…, ${entry.commit}): run it again with --record\n`,
      );
    return { ...entry, stale: true };
  });
}

/** Runs `catsim run ARGS --quiet` once, as a user does, and records it in place of an entry of the same command. */
function record(runArgs: string[]): void {
  const command = `npx catsim run ${[...runArgs, '--quiet'].join(' ')}`;
  // The commit the build was made from: read before the run, which may outlast a commit.
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const dirty =
    execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
  const before = loadavg()[0] ?? 0;
  const started = performance.now(); // real-clock: a wall time for the record, outside any round
  const ran = spawnSync(process.execPath, ['bin/catsim.mjs', 'run', ...runArgs, '--quiet'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallSeconds = Math.round((performance.now() - started) / 100) / 10;
  const after = loadavg()[0] ?? 0;
  const digest = /^campaign digest: ([0-9a-f]{64}) /m.exec(ran.stdout)?.[1];
  if (digest === undefined) {
    process.stderr.write(`digests: ${command} printed no campaign digest (exit ${ran.status}): ${ran.stderr.trim()}\n`);
    process.exit(2);
  }
  const entry: RecordedDigest = {
    command,
    digest,
    commit: dirty ? `${commit}+changes` : commit,
    date: new Date().toISOString().slice(0, 10),
    wallSeconds,
    load: `${before.toFixed(1)} to ${after.toFixed(1)}`,
    basis: basisOf(file.checked),
  };
  const at = file.recorded.findIndex((known) => known.command === command);
  if (at < 0) file.recorded.push(entry);
  else file.recorded[at] = entry;
  process.stdout.write(`recorded ${command}: ${digest} (${wallSeconds} s, load ${entry.load}, exit ${ran.status})\n`);
}

function withoutStale(entry: RecordedDigest): RecordedDigest {
  const { stale: _, ...current } = entry;
  return current;
}
