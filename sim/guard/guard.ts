/**
 * The world's side of the core API: every call the world makes into a core goes through a guard,
 * so that a core that throws is the core's failure, written to the trace as ground truth
 * (`core_failed`, judged CORE_FAILED by the oracle), never a crash of the testbed (exit 3) and
 * never a silent pass.
 *
 * Fault model (of the core under test, not of the world): the factory throws or returns no core;
 * `createClient`, `attach`, `disclose`, `pushPolicy` or `stop` throws; `disclose` answers
 * something outside the API; `call` throws or rejects; a callback the core scheduled throws; a
 * promise the core left without a handler rejects during the round. Each is recorded once where it
 * happens, with the error's name and first message line (a thrown message is part of the trace,
 * so it is byte-stable only if the core's own messages are), and the round goes on: a call that
 * failed returns nothing, a failed disclosure shows nothing, a factory that failed leaves an inert
 * core. Nothing here adds an event, a timer or a promise hop to a core that does not fail, so the
 * traces of well-behaved cores are unchanged.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { fieldProblem } from '../../contract/trace/field-problem.ts';
import type {
  CallRequest,
  CoreAdapter,
  CoreEnvironment,
  CoreFactory,
  DisclosureResult,
  ModelTurn,
  PolicyUpdate,
  RollbackTrigger,
  EmergencyDisableOrder,
  DeprecationOrder,
  AliasOrder,
  RemovalOrder,
  RemovalAnswer,
  SessionSpec,
  BackupSpec,
} from './adapter.ts';

/** Which call of the world (or which of the core's own callbacks) failed. */
export type CoreCall =
  | 'create'
  | 'createClient'
  | 'attach'
  | 'disclose'
  | 'call'
  | 'pushPolicy'
  | 'stop'
  | 'scheduled'
  | 'unhandledRejection'
  | 'modelTurn'
  | 'rollback'
  | 'emergencyDisable'
  | 'deprecate'
  | 'alias'
  | 'remove'
  | 'attachBackup';

/**
 * How it failed: `THREW` (a synchronous throw), `REJECTED` (`call` rejected), `MALFORMED_ANSWER`
 * (an answer outside the API), `UNHANDLED_REJECTION` (a promise of the core rejected with no handler).
 */
export type CoreFailureReason = 'THREW' | 'REJECTED' | 'MALFORMED_ANSWER' | 'UNHANDLED_REJECTION';

/** One failure, as written in the trace's `core_failed` event (fields in this order). */
export interface CoreFailure {
  during: CoreCall;
  reason: CoreFailureReason;
  /** `Name: first line of the message`, at most {@link ERROR_TEXT_MAX} characters. */
  error: string;
}

/** Longest error text kept in a trace event. */
export const ERROR_TEXT_MAX = 200;

/**
 * A core as the world drives it: every method present, none throws, `call` and `modelTurn` never
 * reject. `surfaceStage` says whether the core implements the optional `modelTurn`; without it,
 * `modelTurn` must not be called (the world runs no model turn). `rollbackSupported` says whether
 * it implements the optional `rollback`; without it `rollback` does nothing (the world writes the
 * trigger `unsupported`); `emergencyDisableSupported`, `deprecateSupported`, `aliasSupported` and
 * `removeSupported` likewise for the optional `emergencyDisable`, `deprecate`, `alias` and `remove`
 * (whose answer, when the core failed, is a refusal coded `CORE_FAILED`); `backupSupported` for
 * the optional `attachBackup` (without it the world hands no backup and writes F37's outages
 * `unsupported`).
 */
export type WorldCore = Required<CoreAdapter> & {
  readonly surfaceStage: boolean;
  readonly rollbackSupported: boolean;
  readonly emergencyDisableSupported: boolean;
  readonly deprecateSupported: boolean;
  readonly aliasSupported: boolean;
  readonly removeSupported: boolean;
  readonly backupSupported: boolean;
};

/** One validator for every default Client of the process (a fresh Ajv per Client is costly). */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** The Client a core without `createClient` gets. */
function defaultClient(): Client {
  return new Client(
    { name: 'catsim-core', version: '1.0.0' },
    { capabilities: {}, jsonSchemaValidator: SHARED_VALIDATOR },
  );
}

/**
 * Builds the core of one round behind the guard. `onFailure` records a failure (the round writes
 * it as a `core_failed` world event); it is called synchronously where the failure happens.
 */
export function guardCore(
  factory: CoreFactory,
  env: CoreEnvironment,
  onFailure: (failure: CoreFailure) => void,
): WorldCore {
  const fail = (during: CoreCall, reason: CoreFailureReason, error: unknown): void =>
    onFailure({ during, reason, error: errorText(error) });
  let core: CoreAdapter;
  try {
    core = readMembers(factory({ ...env, scheduler: guardScheduler(env, fail) }));
  } catch (error) {
    // The factory threw, or reading one of the core's members did (a getter that throws).
    fail('create', 'THREW', error);
    return inertCore();
  }
  const missing = missingMethods(core);
  if (missing !== null) {
    fail('create', 'MALFORMED_ANSWER', new TypeError(missing));
    return inertCore();
  }
  return new GuardedCore(core, fail);
}

type Fail = (during: CoreCall, reason: CoreFailureReason, error: unknown) => void;

/** The scheduler the core gets: a callback that throws is the core's failure, not the world's. */
function guardScheduler(env: CoreEnvironment, fail: Fail): CoreEnvironment['scheduler'] {
  const { scheduler } = env;
  return {
    after: (delayMs, fn) =>
      scheduler.after(delayMs, () => {
        try {
          fn();
        } catch (error) {
          fail('scheduled', 'THREW', error);
        }
      }),
    cancel: (task) => scheduler.cancel(task),
  };
}

const REQUIRED_METHODS = ['attach', 'disclose', 'call', 'pushPolicy', 'stop'] as const;
const OPTIONAL_METHODS = [
  'createClient',
  'modelTurn',
  'rollback',
  'emergencyDisable',
  'deprecate',
  'alias',
  'remove',
  'attachBackup',
] as const;

/**
 * The API members of `value`, each read exactly once, with every function bound to `value`: what
 * the guard calls from then on. A core that answers with a getter is read here, inside the
 * guard, so a getter that throws is the core's failure (`create THREW`), never the testbed's, and
 * a getter that answers differently on a later read cannot change the core mid-round. Anything
 * that is not an object is returned as it is, for {@link missingMethods} to name.
 * @throws whatever a member's getter throws.
 */
export function readMembers<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const members: Record<string, unknown> = {};
  for (const name of [...REQUIRED_METHODS, ...OPTIONAL_METHODS]) {
    const member = (value as Record<string, unknown>)[name];
    if (member !== undefined) members[name] = typeof member === 'function' ? member.bind(value) : member;
  }
  return members as T;
}

/** Why `value` is not a core (one sentence), or null when it has every required method. */
export function missingMethods(value: unknown): string | null {
  if (typeof value !== 'object' || value === null)
    return `create() returned ${describeValue(value)}, not a core object`;
  const core = value as Record<string, unknown>;
  const missing: string[] = REQUIRED_METHODS.filter((name) => typeof core[name] !== 'function');
  const notFunctions = OPTIONAL_METHODS.filter((name) => core[name] !== undefined && typeof core[name] !== 'function');
  if (missing.length === 0 && notFunctions.length === 0) return null;
  const parts = [
    ...(missing.length === 0 ? [] : [`without ${missing.join(', ')}`]),
    ...(notFunctions.length === 0
      ? []
      : [
          `whose optional ${notFunctions.join(', ')} ${notFunctions.length === 1 ? 'is not a function' : 'are not functions'}`,
        ]),
  ];
  return `create() returned a core ${parts.join(' and ')} (a catsim.core.v1 core has attach, disclose, call, pushPolicy and stop, and may have createClient, modelTurn, rollback, emergencyDisable, deprecate, alias, remove and attachBackup)`;
}

class GuardedCore implements WorldCore {
  readonly surfaceStage: boolean;
  readonly rollbackSupported: boolean;
  readonly emergencyDisableSupported: boolean;
  readonly deprecateSupported: boolean;
  readonly aliasSupported: boolean;
  readonly removeSupported: boolean;
  readonly backupSupported: boolean;

  constructor(
    private readonly core: CoreAdapter,
    private readonly fail: Fail,
  ) {
    this.surfaceStage = typeof core.modelTurn === 'function';
    this.rollbackSupported = typeof core.rollback === 'function';
    this.emergencyDisableSupported = typeof core.emergencyDisable === 'function';
    this.deprecateSupported = typeof core.deprecate === 'function';
    this.aliasSupported = typeof core.alias === 'function';
    this.removeSupported = typeof core.remove === 'function';
    this.backupSupported = typeof core.attachBackup === 'function';
  }

  createClient(): Client {
    if (this.core.createClient === undefined) return defaultClient();
    try {
      const client = this.core.createClient();
      if (isClientLike(client)) return client;
      this.fail(
        'createClient',
        'MALFORMED_ANSWER',
        new TypeError(`createClient() returned ${describeValue(client)}, not an SDK Client`),
      );
    } catch (error) {
      this.fail('createClient', 'THREW', error);
    }
    return defaultClient();
  }

  attach(session: SessionSpec): void {
    this.#guard('attach', () => this.core.attach(session));
  }

  disclose(session: string, tenant: string, role: string, identity: string): DisclosureResult {
    let shown: unknown;
    try {
      shown = this.core.disclose(session, tenant, role, identity);
    } catch (error) {
      this.fail('disclose', 'THREW', error);
      return { ok: false, code: 'CORE_FAILED' };
    }
    const problem = disclosureProblem(shown);
    if (problem === null) return shown as DisclosureResult;
    this.fail('disclose', 'MALFORMED_ANSWER', new TypeError(problem));
    return { ok: false, code: 'CORE_FAILED' };
  }

  call(request: CallRequest): Promise<void> {
    return this.#guardAsync('call', () => this.core.call(request));
  }

  pushPolicy(update: PolicyUpdate): void {
    this.#guard('pushPolicy', () => this.core.pushPolicy(update));
  }

  modelTurn(turn: ModelTurn): Promise<void> {
    return this.#guardAsync('modelTurn', () => this.core.modelTurn?.(turn));
  }

  rollback(trigger: RollbackTrigger): Promise<void> {
    return this.#guardAsync('rollback', () => this.core.rollback?.(trigger));
  }

  emergencyDisable(order: EmergencyDisableOrder): void {
    this.#guard('emergencyDisable', () => this.core.emergencyDisable?.(order));
  }

  deprecate(order: DeprecationOrder): void {
    this.#guard('deprecate', () => this.core.deprecate?.(order));
  }

  alias(order: AliasOrder): void {
    this.#guard('alias', () => this.core.alias?.(order));
  }

  remove(order: RemovalOrder): RemovalAnswer {
    let answer: unknown;
    try {
      answer = this.core.remove?.(order);
    } catch (error) {
      this.fail('remove', 'THREW', error);
      return { removed: false, code: 'CORE_FAILED', reason: 'remove threw' };
    }
    const problem = removalAnswerProblem(answer);
    if (problem === null) return answer as RemovalAnswer;
    this.fail('remove', 'MALFORMED_ANSWER', new TypeError(problem));
    return { removed: false, code: 'CORE_FAILED', reason: problem };
  }

  attachBackup(backup: BackupSpec): void {
    this.#guard('attachBackup', () => this.core.attachBackup?.(backup));
  }

  stop(): void {
    this.#guard('stop', () => this.core.stop());
  }

  #guard(during: CoreCall, run: () => void): void {
    try {
      run();
    } catch (error) {
      this.fail(during, 'THREW', error);
    }
  }

  /** Runs an async core method: a throw is THREW, a rejection REJECTED; resolves either way. */
  #guardAsync(during: CoreCall, run: () => unknown): Promise<void> {
    let pending: unknown;
    try {
      pending = run();
    } catch (error) {
      this.fail(during, 'THREW', error);
      return Promise.resolve();
    }
    return Promise.resolve(pending).then(
      () => undefined,
      (error: unknown) => this.fail(during, 'REJECTED', error),
    );
  }
}

/**
 * Whether `value` can stand for an SDK `Client`: it has `connect` and `request`. Not `instanceof`,
 * since a user's project may hold its own copy of the SDK.
 */
function isClientLike(value: unknown): value is Client {
  const client = value as { connect?: unknown; request?: unknown } | null;
  return (
    typeof client === 'object' &&
    client !== null &&
    typeof client.connect === 'function' &&
    typeof client.request === 'function'
  );
}

/** A core that does nothing: what a round keeps after its factory failed. */
function inertCore(): WorldCore {
  return {
    createClient: defaultClient,
    attach: () => undefined,
    disclose: () => ({ ok: false, code: 'CORE_FAILED' }),
    call: () => Promise.resolve(),
    pushPolicy: () => undefined,
    stop: () => undefined,
    modelTurn: () => Promise.resolve(),
    rollback: () => Promise.resolve(),
    emergencyDisable: () => undefined,
    deprecate: () => undefined,
    alias: () => undefined,
    remove: () => ({ removed: false, code: 'CORE_FAILED', reason: 'the core was not built' }),
    attachBackup: () => undefined,
    surfaceStage: false,
    rollbackSupported: false,
    emergencyDisableSupported: false,
    deprecateSupported: false,
    aliasSupported: false,
    removeSupported: false,
    backupSupported: false,
  };
}

/**
 * Why a `remove` answer is outside the API (one sentence), or null when it is a RemovalAnswer:
 * `{ removed: true }`, or `{ removed: false, code, reason }` with a code of 1 to 64 characters
 * of `[A-Z0-9_]` and a string reason.
 */
export function removalAnswerProblem(value: unknown): string | null {
  const answer = value as { removed?: unknown; code?: unknown; reason?: unknown } | null;
  if (typeof answer !== 'object' || answer === null) return `remove() returned ${describeValue(value)}, not an answer`;
  if (answer.removed === true) return null;
  if (answer.removed !== false) return 'remove() answered without a boolean removed';
  if (typeof answer.code !== 'string' || !/^[A-Z0-9_]{1,64}$/.test(answer.code))
    return `remove() refused with code ${describeValue(answer.code)}, not 1 to 64 characters of [A-Z0-9_]`;
  if (typeof answer.reason !== 'string') return 'remove() refused without a string reason';
  return null;
}

/**
 * Why a `disclose` answer is outside the API (one sentence), or null when it is a DisclosureResult
 * whose fields fit the `disclosure` or `disclosure_refused` event the world writes from it (the
 * trace contract: a catalog key, a non-negative generation, 64-hex digests, a listed code).
 */
export function disclosureProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null)
    return `disclose() returned ${describeValue(value)}, not { ok, ... }`;
  // An `async disclose()` returns a Promise: the API's disclose is synchronous (docs/CORE-API.md).
  if (typeof (value as { then?: unknown }).then === 'function')
    return 'disclose() returned a Promise (is it async?): disclose must return its DisclosureResult synchronously';
  const shown = value as Record<string, unknown>;
  if (shown.ok === false)
    return typeof shown.code === 'string'
      ? contractProblem(fieldProblem('disclosure_refused', 'code', shown.code, 'code'))
      : `disclose() returned ok: false without a string code`;
  if (shown.ok !== true) return `disclose() returned ok: ${describeValue(shown.ok)}, not true or false`;
  if (typeof shown.key !== 'string') return 'disclose() returned ok: true without a string key';
  if (!Number.isSafeInteger(shown.generation)) return 'disclose() returned ok: true without an integer generation';
  if (typeof shown.snapshotDigest !== 'string') return 'disclose() returned ok: true without a string snapshotDigest';
  if (!Array.isArray(shown.tools)) return 'disclose() returned ok: true without a tools array';
  const bad = shown.tools.findIndex(
    (tool: unknown) =>
      typeof (tool as { name?: unknown })?.name !== 'string' ||
      typeof (tool as { descriptorDigest?: unknown }).descriptorDigest !== 'string',
  );
  if (bad >= 0) return `disclose() returned tool ${bad + 1} without a string name and descriptorDigest`;
  const tools = shown.tools as { descriptorDigest: string }[];
  return contractProblem(
    fieldProblem('disclosure', 'key', shown.key, 'key') ??
      fieldProblem('disclosure', 'generation', shown.generation, 'generation') ??
      fieldProblem('disclosure', 'snapshotDigest', shown.snapshotDigest, 'snapshotDigest') ??
      tools.reduce<string | null>(
        (found, tool, index) =>
          found ??
          fieldProblem('plan_made', 'descriptorDigest', tool.descriptorDigest, `tool ${index + 1}'s descriptorDigest`),
        null,
      ),
  );
}

/** A field problem of the trace contract as the sentence of a malformed answer, or null. */
function contractProblem(problem: string | null): string | null {
  return problem === null ? null : `disclose() answered outside catsim.trace.v1: ${problem}`;
}

/** `Name: first line of the message`, cut to {@link ERROR_TEXT_MAX} characters. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : `thrown ${describeValue(error)}`;
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > ERROR_TEXT_MAX ? `${line.slice(0, ERROR_TEXT_MAX - 3)}...` : line;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json.length > 60 ? `${json.slice(0, 57)}...` : json;
  } catch {
    return String(value);
  }
}

/**
 * While a round runs, routes every uncaught exception on this thread to `onException`: a throw
 * from a callback the core queued with `queueMicrotask` or `process.nextTick` (real, not
 * virtual, during a round), which Node reports that way and which would otherwise end the
 * process or the worker. The listeners already installed are set aside meanwhile, as
 * {@link captureUnhandledRejections} does. Returns the function that restores them.
 */
export function captureUncaughtExceptions(onException: (error: unknown) => void): () => void {
  const saved = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  const listener = (error: unknown): void => onException(error);
  process.on('uncaughtException', listener);
  return () => {
    process.off('uncaughtException', listener);
    for (const other of saved) process.on('uncaughtException', other);
  };
}

/**
 * While a round runs, routes every unhandled promise rejection on this thread to `onRejection`
 * (the round blames the core: the simulator and the SDK leave none, which every campaign on the
 * reference core confirms, since an unhandled rejection used to crash the worker). The listeners
 * already installed (a test runner's) are set aside meanwhile, because the round owns the thread
 * while it runs (sim/runtime/world.ts). Returns the function that restores them.
 */
export function captureUnhandledRejections(onRejection: (reason: unknown) => void): () => void {
  const saved = process.listeners('unhandledRejection');
  process.removeAllListeners('unhandledRejection');
  const listener = (reason: unknown): void => onRejection(reason);
  process.on('unhandledRejection', listener);
  return () => {
    process.off('unhandledRejection', listener);
    for (const other of saved) process.on('unhandledRejection', other);
  };
}
