/**
 * `--shard i/n` (shard i, 1-based, of n contiguous blocks of a campaign's rounds) and `--shard
 * auto/n`, which takes i from the environment of a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX`
 * is the pod's 0-based completion index, so shard = index + 1 (examples/ci/k8s-indexed-job.yaml).
 */
import { InputError } from './errors.ts';

/** The variable a Kubernetes Indexed Job sets to the pod's completion index (0-based). */
export const COMPLETION_INDEX_VARIABLE = 'JOB_COMPLETION_INDEX';

/** One shard of a campaign: `index` of `count`, both 1-based. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Parses `--shard`.
 * @param env where `auto/n` reads {@link COMPLETION_INDEX_VARIABLE} (default `process.env`).
 * @throws InputError (exit 2) `--shard must be i/n with 1 <= i <= n, got VALUE` for a malformed
 *   value; for `auto/n`, `--shard auto/4 needs JOB_COMPLETION_INDEX (...), which is not set` or
 *   `... JOB_COMPLETION_INDEX is "7", expected an integer 0..3`.
 */
export function parseShard(value: string, env: NodeJS.ProcessEnv = process.env): Shard {
  const match = /^([1-9]\d*|auto)\/([1-9]\d*)$/.exec(value);
  const count = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(count))
    throw new InputError(`--shard must be i/n with 1 <= i <= n, got ${value}`);
  const index = match[1] === 'auto' ? indexFromEnvironment(value, count, env) : Number(match[1]);
  if (index > count) throw new InputError(`--shard must be i/n with 1 <= i <= n, got ${value}`);
  return { index, count };
}

function indexFromEnvironment(value: string, count: number, env: NodeJS.ProcessEnv): number {
  const raw = env[COMPLETION_INDEX_VARIABLE];
  const where = `the 0-based completion index a Kubernetes Indexed Job sets`;
  if (raw === undefined || raw === '')
    throw new InputError(`--shard ${value} needs ${COMPLETION_INDEX_VARIABLE} (${where}), which is not set`);
  const index = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(index) || index >= count)
    throw new InputError(
      `--shard ${value}: ${COMPLETION_INDEX_VARIABLE} is ${JSON.stringify(raw)}, expected an integer 0..${count - 1}`,
    );
  return index + 1;
}
