/**
 * The campaign digests catsim keeps in `docs/digests.json` (what a change to catsim must not move
 * unless it means to), read and computed for test/digests.test.ts and scripts/digests.ts.
 *
 * The file holds two lists. `checked`: small campaigns (a few dozen rounds) that the test runs
 * again and compares, so any change that moves a trace fails it until the file is updated.
 * `recorded`: the campaigns too long for a test (300 to 100,000 rounds), each with its command,
 * digest, commit, date, wall time and load, and the `basis` it was measured on: the digest of the
 * `checked` list at that commit. A recorded entry whose basis is no longer the current one may
 * belong to older traces; it must then say `"stale": true` until someone runs it again.
 * `npx tsx scripts/digests.ts` rewrites the checked digests and marks what went stale;
 * `npx tsx scripts/digests.ts --record ARGS...` runs one long campaign and records it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { main } from '../../cli/main.ts';

/** Where the digests live, relative to the repository root. */
export const DIGESTS_PATH = 'docs/digests.json';

/** The `schema` field of the file. */
export const DIGESTS_SCHEMA = 'catsim.digests.v1';

/** A campaign the test runs again: `catsim run ARGS` and the digest it must print. */
export interface CheckedDigest {
  /** The arguments after `catsim run` (the seed, rounds, scenario, catalog or core; never workers, which change no digest). */
  args: string[];
  digest: string;
}

/** A campaign too long for a test, as it was measured. */
export interface RecordedDigest {
  /** The command as typed, e.g. `npx catsim run --seed 1 --rounds 300 --quiet`. */
  command: string;
  digest: string;
  /** The commit it ran on (short id) and the day. */
  commit: string;
  date: string;
  /** Wall time of the whole command, seconds. */
  wallSeconds: number;
  /** The 1-minute load average before and after, as measured, e.g. `8.9 to 11.3`. */
  load: string;
  /** {@link basisOf} the checked list on that commit. */
  basis: string;
  /** Set when the checked digests moved since: the traces of this campaign may have moved too. */
  stale?: true;
  /** Anything the figures need beside them (workers, machine). */
  note?: string;
}

/** The whole file. */
export interface DigestFile {
  schema: typeof DIGESTS_SCHEMA;
  about: string;
  checked: CheckedDigest[];
  recorded: RecordedDigest[];
}

/** Reads `docs/digests.json` under `root`. @throws on a file that is not one (the test then fails). */
export function readDigests(root = '.'): DigestFile {
  const file = JSON.parse(readFileSync(resolve(root, DIGESTS_PATH), 'utf8')) as DigestFile;
  if (file.schema !== DIGESTS_SCHEMA)
    throw new Error(`${DIGESTS_PATH}: schema is ${JSON.stringify(file.schema)}, not ${DIGESTS_SCHEMA}`);
  return file;
}

/** The file's text: two-space JSON and a final newline, each checked entry on one line, so a moved digest is a one-line diff. */
export function digestsText(file: DigestFile): string {
  const list = (entries: readonly object[]): string =>
    entries.length === 0 ? '[]' : `[\n${entries.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n')}\n  ]`;
  return `{\n  "schema": ${JSON.stringify(file.schema)},\n  "about": ${JSON.stringify(file.about)},\n  "checked": ${list(file.checked)},\n  "recorded": ${list(file.recorded)}\n}\n`;
}

/** sha256 over the checked list (`args` and digest, one line each, in file order): what the recorded entries were measured against. */
export function basisOf(checked: readonly CheckedDigest[]): string {
  return createHash('sha256')
    .update(checked.map((entry) => `${entry.args.join(' ')} ${entry.digest}`).join('\n'))
    .digest('hex');
}

/** The first campaign digest line of a summary. */
const DIGEST_LINE = /^campaign digest: ([0-9a-f]{64}) /m;

/**
 * Runs `catsim run ARGS` in this process (`main` of cli/main.ts; in-process rounds, no progress,
 * no shrink, no determinism replays: none of these changes a digest) and returns the campaign
 * digest it prints.
 * @throws Error with the command's output when it prints none (a usage error, a testbed failure).
 */
export async function campaignDigestOf(args: readonly string[]): Promise<string> {
  let stdout = '';
  let stderr = '';
  const write = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  let code: number;
  try {
    code = await main(['run', ...args, '--workers', '0', '--no-shrink', '--quiet', '--determinism-every', '0']);
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
  const digest = DIGEST_LINE.exec(stdout)?.[1];
  if (digest === undefined)
    throw new Error(
      `catsim run ${args.join(' ')} printed no campaign digest (exit ${code}): ${stderr.trim() || stdout.trim()}`,
    );
  return digest;
}
