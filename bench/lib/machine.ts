/**
 * What the figures were measured on: CPU model and count, Node version, time, and the load
 * average (the machines are shared; a load above the CPU count means the figures are noisy).
 */
import os from 'node:os';

/** The 1, 5 and 15 minute load averages, written like `uptime` does. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(', ');
}

/** Lines describing the machine and the moment, for the top of a report. */
export function machineLines(): string[] {
  const cpus = os.cpus();
  return [
    `machine: ${cpus[0]?.model ?? 'unknown CPU'} x ${cpus.length}, ${os.platform()} ${os.release()}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `node ${process.version}, time ${new Date().toISOString()}`, // real-clock: report only
    `load average (1, 5, 15 min): ${loadAverage()}`,
  ];
}
