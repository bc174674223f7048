/**
 * Durations for people: the progress bar's time left. (cli-progress's own formatter rounds the
 * minutes after taking the hours, so 1 h 59 min 40 s reads "1h60m".)
 */

/**
 * `seconds` rounded to the second, then written as `45s`, `12m05s` or `3h07m`.
 * Not finite or negative (cli-progress passes NaN/Infinity before it has a rate): `-`.
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '-';
  const total = Math.round(seconds);
  const pad = (value: number) => String(value).padStart(2, '0');
  if (total < 60) return `${total}s`;
  if (total < 3600) return `${Math.floor(total / 60)}m${pad(total % 60)}s`;
  const minutes = Math.round(total / 60);
  return `${Math.floor(minutes / 60)}h${pad(minutes % 60)}m`;
}
