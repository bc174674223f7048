/**
 * The URL of a remote server's MCP endpoint (`--url URL`), checked before anything connects.
 */
import { ConnectError } from './connect-error.ts';

/**
 * Parses the URL of a server's MCP endpoint.
 * @returns the URL, when `text` is an absolute URL with the `http:` or `https:` scheme.
 * @throws ConnectError `--url must be an http(s) URL, got TEXT` (or `got an empty string`)
 *   otherwise.
 */
export function parseServerUrl(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new ConnectError(`--url must be an http(s) URL, got ${text === '' ? 'an empty string' : text}`);
  return url;
}
