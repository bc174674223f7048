import { describe, expect, it } from 'vitest';
import { runMain } from './support/run-main.ts';

// Every count option quotes what was typed: "not a number: abc", "too large: at most N", and an
// option given twice is refused rather than joined into "2,3".
describe('numbers and repeated options on the command line', () => {
  const refused = (stderr: string) => ({ code: 2, stdout: '', stderr: `catsim: ${stderr}\n` });

  it('a count that is not a number, too large, or not an integer is named with the text typed', async () => {
    expect(await runMain(['run', '--rounds', 'abc'])).toEqual(refused('--rounds is not a number: abc'));
    expect(await runMain(['run', '--rounds', '1e30'])).toEqual(
      refused('--rounds is too large: at most 2147483647, got 1e30'),
    );
    expect(await runMain(['run', '--rounds', 'Infinity'])).toEqual(refused('--rounds is not a number: Infinity'));
    expect(await runMain(['run', '--rounds', '0x10'])).toEqual(refused('--rounds is not a number: 0x10'));
    expect(await runMain(['run', '--rounds', '2.5'])).toEqual(refused('--rounds must be a positive integer, got 2.5'));
    expect(await runMain(['run', '--rounds='])).toEqual(refused('--rounds is empty: give a number'));
    expect(await runMain(['run', '--from', '-1'])).toEqual(refused('--from must be a non-negative integer, got -1'));
    expect(await runMain(['run', '--rounds', '1000', '--from', '2147483000'])).toEqual(
      refused('--from 2147483000 --rounds 1000 go past round 2147483647, the last round number'),
    );
  });

  it('every count option of every command is read the same way', async () => {
    const cases: [string[], string][] = [
      [['run', '--workers', 'two'], '--workers is not a number: two'],
      [['run', '--determinism-every', '1e10'], '--determinism-every is too large: at most 2147483647, got 1e10'],
      [['replay', '--seed', '1', '--round', 'x'], '--round is not a number: x'],
      [
        ['shrink', '--seed', '1', '--round', '5', '--attempts', '9e99'],
        '--attempts is too large: at most 2147483647, got 9e99',
      ],
      [['prove', '--cap', 'many'], '--cap is not a number: many'],
      [['prove', '--chunk', '0.5'], '--chunk must be a positive integer, got 0.5'],
      [['prove', '--peer-rounds', '-5'], '--peer-rounds must be a non-negative integer, got -5'],
      [
        ['discover', '--stdio', 'x', '--timeout', '2147483648'],
        '--timeout is too large: at most 2147483647, got 2147483648',
      ],
      [['capture', '--stdio', 'x', '--page-count-max', 'lots'], '--page-count-max is not a number: lots'],
      [
        ['run', '--rounds', '10', '--shard', '1/3000000000', '--report', '/tmp/catsim-never.json'],
        '--shard 1/3000000000: 10 rounds cannot make 3000000000 shards (some would be empty); use at most 10',
      ],
    ];
    for (const [args, message] of cases) expect(await runMain(args), args.join(' ')).toEqual(refused(message));
  });

  it('an option given twice is refused, numbers and strings alike', async () => {
    expect(await runMain(['run', '--rounds', '2', '--rounds', '3'])).toEqual(
      refused('--rounds given twice (2, 3): give it once'),
    );
    expect(await runMain(['run', '--rounds', '1', '--seed', 'a', '--seed', 'b'])).toEqual(
      refused('--seed given twice (a, b): give it once'),
    );
    expect(await runMain(['run', '--rounds', '1', '--report', 'a.json', '--report', 'b.json'])).toEqual(
      refused('--report given twice (a.json, b.json): give it once'),
    );
    expect(await runMain(['discover', '--stdio', 'x', '--timeout', '5', '--timeout', '6'])).toEqual(
      refused('--timeout given twice (5, 6): give it once'),
    );
  });
});
