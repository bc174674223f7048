import { describe, expect, it } from 'vitest';
import { World } from './world.ts';

const realGlobals = () => ({
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  Date: globalThis.Date,
});

describe('World queue', () => {
  it('runs events in (time, sequence) order and advances the clock', async () => {
    const world = new World({ eventBudget: 100 });
    const log: string[] = [];
    world.schedule(20, () => log.push(`b@${world.now()}`));
    world.schedule(10, () => log.push(`a@${world.now()}`));
    world.schedule(20, () => log.push(`c@${world.now()}`));
    const result = await world.run(1_000, () => undefined);
    expect(log).toEqual(['a@10', 'b@20', 'c@20']);
    expect(result).toEqual({ status: 'settled', reason: 'quiet', eventsRun: 3, endedAtMs: 20 });
  });

  it('skips cancelled events and does not count them', async () => {
    const world = new World({ eventBudget: 100 });
    const log: number[] = [];
    const id = world.after(5, () => log.push(5));
    world.after(7, () => log.push(7));
    world.cancel(id);
    world.cancel(id);
    world.cancel(12345);
    const result = await world.run(1_000, () => undefined);
    expect(log).toEqual([7]);
    expect(result.eventsRun).toBe(1);
  });

  it('stops at the horizon with the clock set to it', async () => {
    const world = new World({ eventBudget: 100 });
    const log: number[] = [];
    world.schedule(100, () => log.push(100));
    world.schedule(101, () => log.push(101));
    const result = await world.run(100, () => undefined);
    expect(log).toEqual([100]);
    expect(result).toEqual({ status: 'settled', reason: 'horizon', eventsRun: 1, endedAtMs: 100 });
    const rest = await world.run(200, () => undefined);
    expect(log).toEqual([100, 101]);
    expect(rest.endedAtMs).toBe(101);
  });

  it("counts only foreground events as pending (the core's timers run in the background), and stops on stop()", async () => {
    const world = new World({ eventBudget: 100 });
    const seen: [number, number][] = [];
    world.schedule(10, () => seen.push([world.now(), world.pendingForeground]));
    const cancelled = world.after(15, () => undefined);
    world.afterInBackground(5, () => seen.push([world.now(), world.pendingForeground]));
    world.cancel(cancelled);
    world.afterInBackground(20, () => {
      seen.push([world.now(), world.pendingForeground]);
      world.stop();
    });
    world.schedule(30, () => seen.push([world.now(), world.pendingForeground]));
    const result = await world.run(1_000, () => {
      // A virtual setTimeout is the core's: in the background too.
      setTimeout(() => seen.push([world.now(), world.pendingForeground]), 12);
    });
    // At 5: the events at 10 and 30 (15 was cancelled); at 10 and 12: the one at 30; 30 never runs.
    expect(seen).toEqual([
      [5, 2],
      [10, 1],
      [12, 1],
      [20, 1],
    ]);
    expect(result).toEqual({ status: 'settled', reason: 'done', eventsRun: 4, endedAtMs: 20 });
  });

  it('refuses to schedule in the past', async () => {
    const world = new World({ eventBudget: 100 });
    await world.run(50, () => {
      world.after(10, () => expect(() => world.schedule(5, () => undefined)).toThrow(RangeError));
    });
    expect(world.now()).toBe(10);
    await expect(world.run(5, () => undefined)).rejects.toThrow(RangeError);
  });

  it('ends a loop at one instant as undecided/event_budget', async () => {
    const world = new World({ eventBudget: 1_000 });
    const spin = (): void => {
      world.schedule(world.now(), spin);
    };
    world.schedule(3, spin);
    const result = await world.run(10_000, () => undefined);
    expect(result).toEqual({ status: 'undecided', reason: 'event_budget', eventsRun: 1_000, endedAtMs: 3 });
  });

  it('lets main await what the queue delivers', async () => {
    const world = new World({ eventBudget: 100 });
    const seen: number[] = [];
    const result = await world.run(1_000, async () => {
      for (const delayMs of [10, 20, 30]) {
        await new Promise<void>((resolve) => world.after(delayMs, resolve));
        seen.push(world.now());
      }
    });
    expect(seen).toEqual([10, 30, 60]);
    expect(result.endedAtMs).toBe(60);
  });
});

describe('World failures and globals', () => {
  it('restores the globals after a normal run', async () => {
    const before = realGlobals();
    const world = new World({ eventBudget: 100 });
    let inside: ReturnType<typeof realGlobals> | undefined;
    await world.run(10, () => {
      inside = realGlobals();
    });
    expect(inside!.setTimeout).not.toBe(before.setTimeout);
    expect(inside!.Date).not.toBe(before.Date);
    expect(realGlobals()).toEqual(before);
  });

  it('rethrows a rejecting main after restoring the globals', async () => {
    const before = realGlobals();
    const world = new World({ eventBudget: 100 });
    const failing = world.run(1_000, async () => {
      await new Promise<void>((resolve) => setTimeout(resolve, 10));
      throw new Error('main broke');
    });
    await expect(failing).rejects.toThrow('main broke');
    expect(realGlobals()).toEqual(before);
    expect(world.now()).toBe(10);
  });

  it('rethrows a synchronously throwing main', async () => {
    const before = realGlobals();
    const world = new World({ eventBudget: 100 });
    await expect(
      world.run(1_000, () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(realGlobals()).toEqual(before);
  });

  it('stops at the first throwing event and rethrows it', async () => {
    const world = new World({ eventBudget: 100 });
    const log: number[] = [];
    world.schedule(1, () => {
      throw new Error('event broke');
    });
    world.schedule(2, () => log.push(2));
    await expect(world.run(1_000, () => undefined)).rejects.toThrow('event broke');
    expect(log).toEqual([]);
    expect(world.now()).toBe(1);
  });

  it('fail() ends the round with that error', async () => {
    const world = new World({ eventBudget: 100 });
    world.schedule(1, () => world.fail(new Error('invariant')));
    world.schedule(2, () => world.fail(new Error('second')));
    await expect(world.run(1_000, () => undefined)).rejects.toThrow('invariant');
  });

  it('allows one running world per thread', async () => {
    const outer = new World({ eventBudget: 100 });
    const inner = new World({ eventBudget: 100 });
    let nested: Promise<unknown> | undefined;
    await outer.run(10, () => {
      nested = inner.run(10, () => undefined);
      nested.catch(() => undefined);
    });
    await expect(nested).rejects.toThrow('already running');
    await expect(inner.run(10, () => undefined)).resolves.toMatchObject({ status: 'settled' });
  });

  it('rejects a non-positive event budget', () => {
    expect(() => new World({ eventBudget: 0 })).toThrow(RangeError);
  });
});

describe('virtual timers and Date', () => {
  it('fires setTimeout at exact virtual times with Node delay coercion', async () => {
    const world = new World({ eventBudget: 100 });
    const log: string[] = [];
    await world.run(10_000, () => {
      setTimeout((tag: string) => log.push(`${tag}@${world.now()}`), 2_500.9, 'frac');
      setTimeout(() => log.push(`zero@${world.now()}`), 0);
      setTimeout(() => log.push(`nan@${world.now()}`), Number.NaN);
      const cleared = setTimeout(() => log.push('never'), 5);
      clearTimeout(cleared);
      const byNumber = setTimeout(() => log.push('never'), 6);
      clearTimeout(Number(byNumber));
    });
    expect(log).toEqual(['zero@1', 'nan@1', 'frac@2500']);
  });

  it('re-arms intervals until cleared, even from inside the callback', async () => {
    const world = new World({ eventBudget: 100 });
    const ticks: number[] = [];
    await world.run(10_000, () => {
      const interval = setInterval(() => {
        ticks.push(world.now());
        if (ticks.length === 3) clearInterval(interval);
      }, 100);
    });
    expect(ticks).toEqual([100, 200, 300]);
    expect(world.now()).toBe(300);
  });

  it('supports unref/ref/hasRef/refresh/toPrimitive on handles', async () => {
    const world = new World({ eventBudget: 100 });
    const fired: number[] = [];
    await world.run(10_000, () => {
      const handle = setTimeout(() => fired.push(world.now()), 50);
      expect(handle.unref()).toBe(handle);
      expect(handle.hasRef()).toBe(false);
      expect(handle.ref().hasRef()).toBe(true);
      expect(typeof +handle).toBe('number');
      world.after(30, () => handle.refresh());
      // Refreshing a timeout that already fired re-arms it, as in Node.
      world.after(200, () => handle.refresh());
    });
    expect(fired).toEqual([80, 250]);
  });

  it('lets Date.now() and new Date() read the virtual clock, nothing else', async () => {
    const world = new World({ eventBudget: 100 });
    const seen: unknown[] = [];
    await world.run(10_000, () => {
      world.after(1_234, () => {
        seen.push(Date.now(), new Date().getTime(), new Date(86_400_000).toISOString());
        seen.push(new Date() instanceof Date, Date() === new Date(1_234).toString(), Date.UTC(2020, 0, 1));
      });
    });
    expect(seen).toEqual([1_234, 1_234, '1970-01-02T00:00:00.000Z', true, true, Date.UTC(2020, 0, 1)]);
  });

  it('still recognises Dates made outside the round as Dates', async () => {
    const world = new World({ eventBudget: 100 });
    const before = new Date(5);
    let inside: Date | undefined;
    let checks: boolean[] = [];
    await world.run(10, () => {
      inside = new Date();
      checks = [before instanceof Date, inside instanceof Date, Date.prototype.isPrototypeOf(inside)];
    });
    expect(checks).toEqual([true, true, true]);
    expect(inside instanceof Date).toBe(true);
    expect(inside!.getTime()).toBe(0);
  });
});
