#!/usr/bin/env node
// catsim's stdio shim (issue 28): a host launches this as its MCP server command; it relays the
// host's stdio JSON-RPC lines to catsim over loopback TCP and catsim's lines back to stdout.
// Dependency-free on purpose (node: builtins only), so any host can launch it with plain `node`.
// Usage: node stdio-shim.mjs 127.0.0.1:PORT SERVER   (the token comes in CATSIM_TOKEN).
import { connect } from 'node:net';

const [address, server] = process.argv.slice(2);
const [host, port] = (address ?? '').split(':');
if (host !== '127.0.0.1' || !port || !server) {
  process.stderr.write('catsim stdio shim: usage: stdio-shim.mjs 127.0.0.1:PORT SERVER (loopback only)\n');
  process.exit(2);
}
const socket = connect(Number(port), host, () => {
  socket.write(`${JSON.stringify({ server, token: process.env.CATSIM_TOKEN ?? '' })}\n`);
  process.stdin.pipe(socket);
});
socket.pipe(process.stdout);
socket.on('error', (error) => {
  process.stderr.write(`catsim stdio shim: ${error.message}\n`);
  process.exit(1);
});
socket.on('close', () => process.exit(0));
process.stdin.on('end', () => socket.end());
