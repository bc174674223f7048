/**
 * Progress of `catsim run`, on stderr: the cli-progress bar on a terminal; without one (a CI log,
 * `2> log`) one plain line at most every 10 s; nothing with `--quiet` or `--no-progress`.
 *
 * The CLI sits outside the determinism boundary, so the reporter reads the real clock, but it
 * never schedules a timer itself: a line is written only from {@link ProgressReporter.update},
 * which the campaign calls between rounds. That mattered when `--workers 0` ran rounds on this
 * thread with the timer globals faked (SPEC section 10; cli-progress redraws on its own timers);
 * every round now runs on a worker thread, but `--workers 0` keeps the plain lines on a terminal.
 */
import cliProgress from 'cli-progress';
import { formatDuration } from './format/duration.ts';

/** Receives the campaign's progress between rounds. */
export interface ProgressReporter {
  /** `done` rounds finished so far (of the total given at creation), `failing` of them failed. */
  update(done: number, failing: number): void;
  /** Ends the display (the bar is cleared of its cursor handling); safe to call twice. */
  stop(): void;
}

/** How progress is shown: the bar, plain lines, or not at all. */
export type ProgressMode = 'bar' | 'lines' | 'none';

/** Where `catsim run` stands when choosing a {@link ProgressMode}. */
export interface ProgressSetting {
  /** False with `--quiet` or `--no-progress`. */
  enabled: boolean;
  /** Whether stderr is a terminal. */
  terminal: boolean;
  /** Worker threads; 0 runs the rounds on this thread, where no timer may be armed. */
  workers: number;
}

/** The gap between two plain progress lines, in ms of the real clock. */
export const LINE_INTERVAL_MS = 10_000;

/** The bar on a terminal while rounds run on workers; lines otherwise; none when disabled. */
export function progressMode(setting: ProgressSetting): ProgressMode {
  if (!setting.enabled) return 'none';
  return setting.terminal && setting.workers > 0 ? 'bar' : 'lines';
}

/**
 * The reporter for `mode`, for a campaign of `total` rounds, writing to `stream`. `now` is the
 * real clock in ms (`performance.now`); tests pass a fake one.
 */
export function progressReporter(
  mode: ProgressMode,
  total: number,
  stream: NodeJS.WritableStream,
  now: () => number,
): ProgressReporter {
  if (mode === 'bar') return barReporter(total, stream);
  if (mode === 'lines') return lineReporter(total, (line) => stream.write(line), now);
  return { update: () => undefined, stop: () => undefined };
}

/** The cli-progress bar of a terminal: rounds, failing rounds, time left. */
function barReporter(total: number, stream: NodeJS.WritableStream): ProgressReporter {
  const bar = new cliProgress.SingleBar(
    {
      format: 'rounds {bar} {value}/{total}  failing {failing}  {eta_formatted} left',
      stream,
      hideCursor: true,
      formatTime: formatDuration,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { failing: 0 });
  return { update: (done, failing) => bar.update(done, { failing }), stop: () => bar.stop() };
}

/**
 * Plain lines: at the first update at least {@link LINE_INTERVAL_MS} after the start, and then
 * at the first update at least as long after the previous line, writes e.g.
 * `progress: 1,250/100,000 rounds (1.3%), 0 failing, 25.0 rounds/s, 1h06m left`. The rate is
 * the average since the start (worker start-up included); the time left assumes it holds.
 */
export function lineReporter(
  total: number,
  write: (line: string) => void,
  now: () => number,
  intervalMs = LINE_INTERVAL_MS,
): ProgressReporter {
  const started = now();
  let last = started;
  return {
    update: (done, failing) => {
      const at = now();
      if (at - last < intervalMs) return;
      last = at;
      write(`${progressLine(done, total, failing, (at - started) / 1000)}\n`);
    },
    stop: () => undefined,
  };
}

/**
 * Throttled stage lines for commands that run many campaigns one after another (`catsim prove`):
 * `say(text)` writes `progress: TEXT, 2m10s elapsed` at the first call at least `intervalMs`
 * after the start or the previous line, and nothing otherwise. Like {@link lineReporter} it arms
 * no timer: the caller calls it between rounds. `now` is the real clock in ms.
 */
export function stageReporter(
  write: (line: string) => void,
  now: () => number,
  intervalMs = LINE_INTERVAL_MS,
): { say(text: string): void } {
  const started = now();
  let last = started;
  return {
    say: (text) => {
      const at = now();
      if (at - last < intervalMs) return;
      last = at;
      write(`progress: ${text}, ${formatDuration((at - started) / 1000)} elapsed\n`);
    },
  };
}

/** One progress line for `done` of `total` rounds, `failing` of them failed, after `elapsedS` seconds. */
export function progressLine(done: number, total: number, failing: number, elapsedS: number): string {
  const rate = elapsedS > 0 ? done / elapsedS : 0;
  const left = rate > 0 ? formatDuration((total - done) / rate) : '-';
  const percent = total > 0 ? ((100 * done) / total).toFixed(1) : '0.0';
  return `progress: ${count(done)}/${count(total)} rounds (${percent}%), ${count(failing)} failing, ${rate.toFixed(1)} rounds/s, ${left} left`;
}

/** An integer with thousands separators, the same on every machine: `100,000`. */
function count(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
