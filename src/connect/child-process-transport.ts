/**
 * An MCP client transport over a child process's stdin and stdout: newline-delimited JSON-RPC,
 * framed and parsed by the SDK's own `ReadBuffer` and `serializeMessage`, as the SDK's
 * `StdioClientTransport` does, with two differences a host needs when the server misbehaves:
 *
 * - The child leads a process group of its own, and {@link ChildProcessTransport.close} ends the
 *   whole group for certain: stdin is closed and the group gets SIGTERM at once, then SIGKILL
 *   when it has not exited after `killGraceMs`. The SDK's transport signals only its direct child
 *   and waits 2 s twice, so a server that never answers and ignores SIGTERM kept the host 4 s,
 *   and one started through a wrapper (`npx`, `sh -c`) whose grandchild holds the pipes kept it
 *   alive forever.
 * - An incoming message longer than `messageBytesMax` closes the connection and is remembered
 *   ({@link ChildProcessTransport.messageTooLarge}), so that a caller can report a size refusal
 *   instead of a disconnect that invites a retry failing the same way.
 *
 * This is one of the host's real-world ports: it spawns a process and arms a real timer (the
 * kill grace). Nothing inside a simulated round uses it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Default wait between SIGTERM and SIGKILL when the transport closes, ms. */
export const DEFAULT_KILL_GRACE_MS = 500;

/** Default longest incoming message, bytes: the SDK's stdio default (10 MiB). */
export const DEFAULT_MESSAGE_BYTES_MAX = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** The process to start and how to bound it. */
export interface ChildProcessSpec {
  /** The program (looked up on `PATH`, no shell). */
  command: string;
  args: readonly string[];
  /** Variables added to the SDK's default environment (`getDefaultEnvironment`: HOME, PATH, ...). */
  env?: Record<string, string>;
  /** Working directory of the child; default the host's. */
  cwd?: string;
  /**
   * Longest incoming message (one JSON-RPC line and the part of a read chunk after it), bytes.
   * Default {@link DEFAULT_MESSAGE_BYTES_MAX}. A longer one closes the connection.
   */
  messageBytesMax?: number;
  /** Wait between SIGTERM and SIGKILL on close, ms. Default {@link DEFAULT_KILL_GRACE_MS}. */
  killGraceMs?: number;
}

/** Process groups are a POSIX notion; on Windows only the direct child can be signalled. */
const USE_PROCESS_GROUP = process.platform !== 'win32';

/** An SDK {@link Transport} to a server started as a child process. Start it through `Client.connect`. */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /**
   * The child's stderr, available before `start()` so that nothing it writes early is lost. It
   * ends when the child's own stderr closes. Read it (a `data` listener): unread, it holds 16 KiB
   * and then stops the child's stderr, which blocks a child that writes more.
   */
  readonly stderr = new PassThrough();
  readonly #spec: ChildProcessSpec;
  readonly #buffer: ReadBuffer;
  #child: ChildProcessWithoutNullStreams | undefined;
  #gone: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #tooLarge = false;

  constructor(spec: ChildProcessSpec) {
    this.#spec = spec;
    this.#buffer = new ReadBuffer({ maxBufferSize: spec.messageBytesMax ?? DEFAULT_MESSAGE_BYTES_MAX });
  }

  /** The child's process id once started; undefined before. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** True once an incoming message longer than `messageBytesMax` closed the connection. */
  messageTooLarge(): boolean {
    return this.#tooLarge;
  }

  /**
   * Spawns the child. Resolves once it runs.
   * @throws Error with Node's `code` (e.g. `ENOENT` for a command that does not exist), as a
   *   rejection, when it cannot be spawned; Error when called twice.
   */
  start(): Promise<void> {
    if (this.#child !== undefined) throw new Error('ChildProcessTransport already started');
    const { command, args, env, cwd } = this.#spec;
    const child = spawn(command, [...args], {
      env: { ...getDefaultEnvironment(), ...env },
      cwd,
      stdio: 'pipe',
      shell: false,
      detached: USE_PROCESS_GROUP,
      windowsHide: true,
    });
    this.#child = child;
    this.#gone = new Promise((resolve) => child.once('close', () => resolve()));
    child.once('close', () => this.onclose?.());
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.stdout.on('error', (error) => this.onerror?.(error));
    child.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
    child.stderr.pipe(this.stderr);
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
    });
  }

  /**
   * Writes one message on the child's stdin; resolves when it is written (or buffered below the
   * stream's high-water mark).
   * @throws Error `Not connected` (as a rejection) before start or after the child exited.
   */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (stdin === undefined || !stdin.writable) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Ends the child and its process group: closes stdin and sends SIGTERM at once; SIGKILL when the
   * child's pipes are still open after `killGraceMs`. Resolves when they closed (at most about
   * twice the grace); then `onclose` has run. Idempotent; never rejects.
   */
  close(): Promise<void> {
    this.#closing ??= this.#terminate();
    return this.#closing;
  }

  async #terminate(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    const graceMs = this.#spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    child.stdin.end();
    signal(child, 'SIGTERM');
    if (!(await this.#goneWithin(graceMs))) {
      signal(child, 'SIGKILL');
      await this.#goneWithin(graceMs);
    }
    // A process that left the group (setsid) may still hold the pipes: drop our ends, so that
    // it cannot keep the host's event loop alive.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream.destroy();
    this.#buffer.clear();
  }

  /** True when the child's pipes closed within `ms` milliseconds. */
  async #goneWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms); // real-clock: the host's real-world port (stdio child), never used in a simulated round
    });
    try {
      return await Promise.race([(this.#gone as Promise<void>).then(() => true), waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Frames `chunk` into messages; an over-long message closes the connection. */
  #read(chunk: Buffer): void {
    try {
      this.#buffer.append(chunk);
    } catch (error) {
      // ReadBuffer.append throws only when the unread bytes would pass its maximum size.
      this.#tooLarge = true;
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC: reported, skipped (the SDK's transport does the same).
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}

/** Signals the child's process group (the child alone on Windows); a group already gone is fine. */
function signal(child: ChildProcessWithoutNullStreams, name: NodeJS.Signals): void {
  try {
    if (USE_PROCESS_GROUP && child.pid !== undefined) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    // ESRCH: every process of the group has exited already.
  }
}
