/**
 * `host-test --jobs N` (cli/commands/host-test.ts `inOrder`): at most N cases run at once, and
 * their results are handed over in case order whichever finishes first, so the lines and the
 * reports are those of a serial run.
 */
import { describe, expect, it } from 'vitest';
import { inOrder } from '../cli/commands/host-test.ts';

/** Runs `inOrder` on items 0..count-1 whose work finishes when the test says; records every start, finish and hand-over. */
function harness(count: number, jobs: number) {
  const log: string[] = [];
  const finish = new Map<number, () => void>();
  let running = 0;
  let most = 0;
  const done = inOrder(
    Array.from({ length: count }, (_, index) => index),
    jobs,
    async (item) => {
      running += 1;
      most = Math.max(most, running);
      log.push(`start ${item}`);
      await new Promise<void>((resolve) => finish.set(item, resolve));
      running -= 1;
      return `result ${item}`;
    },
    (result) => log.push(`handed ${result}`),
  );
  /** Lets item `item` finish, then lets every promise settle. */
  const end = async (item: number): Promise<void> => {
    finish.get(item)?.();
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
  };
  return { log, end, done, most: () => most };
}

describe('inOrder, the scheduler of host-test --jobs', () => {
  it('runs at most N at once and hands results over in item order, holding a later one until the earlier ones are done', async () => {
    const run = harness(4, 2);
    await run.end(99); // nothing to finish: only lets the first two start
    await run.end(1);
    await run.end(2);
    await run.end(0);
    await run.end(3);
    await run.done;
    expect(run.log).toEqual([
      'start 0',
      'start 1',
      'start 2',
      'start 3',
      'handed result 0',
      'handed result 1',
      'handed result 2',
      'handed result 3',
    ]);
    expect(run.most()).toBe(2);
  });

  it('with one job runs one item after the other, handing each over as it finishes', async () => {
    const run = harness(3, 1);
    for (const item of [0, 1, 2]) await run.end(item);
    await run.done;
    expect(run.log).toEqual(['start 0', 'handed result 0', 'start 1', 'handed result 1', 'start 2', 'handed result 2']);
    expect(run.most()).toBe(1);
  });

  it('when one item throws, the items already running finish, no other item starts, and the error comes out after them', async () => {
    const log: string[] = [];
    const finish = new Map<number, () => void>();
    const done = inOrder(
      [0, 1, 2, 3],
      2,
      async (item) => {
        log.push(`start ${item}`);
        await new Promise<void>((resolve) => finish.set(item, resolve));
        if (item === 0) throw new Error('catsim fault in item 0');
        log.push(`end ${item}`);
        return item;
      },
      (result) => log.push(`handed ${result}`),
    ).catch((error: Error) => log.push(`threw ${error.message}`));
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 10; i += 1) await Promise.resolve();
    };
    await settle();
    finish.get(0)?.();
    await settle();
    finish.get(1)?.();
    await done;
    expect(log).toEqual(['start 0', 'start 1', 'end 1', 'threw catsim fault in item 0']);
  });

  it('once stop says so (host-test interrupted), no item starts; those running finish and are handed over', async () => {
    const log: string[] = [];
    const finish = new Map<number, () => void>();
    let stopped = false;
    const done = inOrder(
      [0, 1, 2, 3],
      2,
      async (item) => {
        log.push(`start ${item}`);
        await new Promise<void>((resolve) => finish.set(item, resolve));
        return item;
      },
      (result) => log.push(`handed ${result}`),
      () => stopped,
    );
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 10; i += 1) await Promise.resolve();
    };
    await settle();
    finish.get(0)?.();
    await settle();
    stopped = true;
    finish.get(1)?.();
    finish.get(2)?.();
    await done;
    expect(log).toEqual(['start 0', 'start 1', 'handed 0', 'start 2', 'handed 1', 'handed 2']);
  });
});
