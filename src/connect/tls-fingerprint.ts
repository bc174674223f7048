/**
 * The SHA-256 fingerprint of the certificate an https server presents, read over a TLS
 * handshake of its own (the fetch that carries the MCP session does not show its socket). It is
 * part of the server identity of an `--url https://...` server (SPEC section 1): a certificate
 * rotation changes the identity.
 *
 * A real-world port of the host (see connected-server.ts): it opens a socket; never used inside
 * simulated rounds.
 */
import { isIP } from 'node:net';
import { connect } from 'node:tls';

/** How to check the certificate; the defaults are Node's, as for `fetch`. */
export interface FingerprintOptions {
  /** Milliseconds to wait for the handshake. */
  timeoutMs: number;
  /** Trusted CA certificates (PEM) instead of Node's; for tests with a self-signed certificate. */
  ca?: string;
}

/**
 * Connects to `url`'s host and port (443 when none), completes a verified TLS handshake with
 * SNI set to a host name (none for an IP address) and closes.
 * @returns the certificate's SHA-256 fingerprint as Node prints it (`AB:CD:...`, 95 characters).
 * @throws Error carrying Node's message and code when the host cannot be reached, the
 *   certificate is not trusted or does not name the host, or no handshake completes within
 *   `timeoutMs` (`no TLS handshake within N ms`).
 */
export function certificateFingerprint(url: URL, options: FingerprintOptions): Promise<string> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const isIp = isIP(host) !== 0;
  return new Promise((resolve, reject) => {
    const socket = connect({
      host,
      port: url.port === '' ? 443 : Number(url.port),
      ...(isIp ? {} : { servername: host }),
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
    const giveUp = (): void => {
      socket.destroy(new Error(`no TLS handshake within ${options.timeoutMs} ms`));
    };
    socket.setTimeout(options.timeoutMs, giveUp); // real-clock: real TLS handshake, outside simulated rounds
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
  });
}
