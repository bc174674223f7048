/**
 * The tracked mode of the tool surface stage (`hookTools: 'tracked'`, the default;
 * docs/SURFACE.md, "Tracked mode"): hooks receive the request's working copy through proxies
 * that record every write, so both checks can skip what nobody touched while hooks keep editing
 * in place.
 *
 * What is wrapped: the working copy's array and each of its tools (lazily, one proxy per tool per
 * request, cached). The copy itself is lazy too: the array starts with the baseline's own
 * deep-frozen tools, a tool is copied when its proxy is made (the first time a hook reaches that
 * position), and every tool before the array's first write, so hooks only ever reach this
 * request's own copies and an untouched request copies nothing. Nothing deeper: a tool's own object members (its `inputSchema`, anything a
 * hook attached) are handed out as they are, and handing one out **exposes** the tool: from then
 * on the tool counts as written, because whoever holds that object can change it without any
 * trap seeing it. So `structuredClone(tool.inputSchema)` works (a plain object), while
 * `structuredClone(tool)` and `structuredClone(request.tools)` throw (a Proxy cannot be cloned).
 *
 * What marks the tracker, only ever from clean to written (never back):
 * - the array: `set`, `defineProperty`, `deleteProperty`, `setPrototypeOf`, `preventExtensions`
 *   (so `push`, `sort`, `splice`, `reverse`, a `length` write, `Object.freeze`);
 * - a tool: the same five traps on it, and any trap that hands out one of its own object values
 *   (`get` of `inputSchema`, `getOwnPropertyDescriptor` of it, so `Object.keys(tool)`, spread and
 *   `JSON.stringify(tool)` too), or a getter or setter the hook defined;
 * - a tool whose raw object the array must hand out itself (the invariant of a frozen array:
 *   `get` of a non-configurable, non-writable index must report the target's own value);
 * - every tool, once an accessor, a member other than a position or `length`, or a prototype is
 *   put on the array (see `#arrayUntrusted`).
 *
 * Why that is sound, whatever a hook does: the raw array and the raw tools are reachable only
 * through the proxies (the array proxy maps each raw tool to its proxy on `get` and in the
 * descriptors it reports; every trap forwards with the proxy as the receiver, so an inherited
 * getter or setter sees the proxy, never the raw object), and the nested objects only through
 * the raw tools. So a tool no trap marked, and an array no trap marked, hold exactly what they
 * held when issued: the baseline's own tool or a deep copy of it, equal by construction. The
 * tracker is the stage's alone (kept off the preparation token, see `trackerOf`), and
 * counts only for the proxies of its own request: a proxy kept from another request is an
 * object like any other and is compared in full.
 *
 * What it assumes, as every mode of the stage does: the realm's built-ins are intact. A hook that
 * replaces `Reflect`, `Function.prototype.call`, `Object.keys` or a member of a built-in
 * prototype can defeat any in-process check, the plain compare included. One Node-specific path
 * belongs there: `util.inspect` (and so `console.log`) reads a proxy's target directly, without
 * traps, and runs code it finds on the target with the target as `this`. Code a hook put on
 * `Object.prototype` or `Array.prototype` is tampering with a built-in prototype; code it put on
 * the array itself or on a prototype it gave the array makes no tool trusted (see
 * `#arrayUntrusted`), and code it put on a tool marks that tool. So does the in-process
 * debugger (`node:inspector`), which reads and edits a proxy's target: a host whose hooks may
 * open an inspector session, like one whose hooks may replace built-ins, must run them in
 * another realm or process.
 */
import type { SurfaceTool } from '../surface-tool.ts';

const hasOwn = Object.prototype.hasOwnProperty;

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** Whether `key` is an array index (a canonical integer string below 2^32 - 1) or `length`. */
function isIndexOrLength(key: string | symbol): boolean {
  if (typeof key !== 'string') return false;
  if (key === 'length') return true;
  const index = Number(key);
  return Number.isInteger(index) && index >= 0 && index < 4_294_967_295 && String(index) === key;
}

/** The position a property key names in the issued array, or -1 (not an index of it). */
function positionOf(key: string | symbol, length: number): number {
  if (typeof key !== 'string') return -1;
  const index = Number(key);
  return Number.isInteger(index) && index >= 0 && index < length && String(index) === key ? index : -1;
}

/**
 * One request's write tracker: the array proxy it issued (`tools`, what hooks receive as
 * `request.tools`), the raw tools by issued position, and what has been written since.
 */
export class WriteTracker {
  /** The issued array proxy (hooks receive it as `request.tools`). */
  readonly tools: SurfaceTool[];
  /** How many tools were issued. */
  readonly length: number;
  /**
   * The raw tool at each issued position: the baseline's own (deep-frozen) tool until a hook first
   * reaches that position, then its copy (made by `#copyTool`, shared with nothing).
   */
  readonly #targets: object[];
  readonly #copyTool: (tool: Readonly<SurfaceTool>) => SurfaceTool;
  readonly #copied: Uint8Array;
  #allCopied = false;
  /** The issued array itself (the array proxy's target). */
  readonly #array: SurfaceTool[];
  readonly #proxies: (SurfaceTool | undefined)[];
  /** Own proxy → its issued position, for the proxies made so far. */
  readonly #positions = new Map<object, number>();
  readonly #dirty: Uint8Array;
  readonly #dirtyPositions: number[] = [];
  /** `#dirtyPositions` sorted, as of `#sortedCount` entries. */
  #sorted: number[] = [];
  #sortedCount = 0;
  #arrayWritten = false;
  /**
   * Whether a hook ever put anything on the array besides its positions and `length`: an
   * accessor, any other member (string or symbol key), or a prototype of its own. Then its
   * positions are read through the proxy, and no tool is trusted any more. Node's `util.inspect`
   * (so `console.log`, `util.format('%o')`) unwraps a proxy and works on its target, and calls
   * code found there with the raw array: its own getters (`{ getters: true }`), a
   * `util.inspect.custom` member, the `Symbol.hasInstance` of a `constructor` member, a getter
   * on a prototype the hook set (`Symbol.toStringTag`). The hook may then hold the raw array and
   * every raw tool in it, and edit them without any trap seeing it.
   */
  #arrayUntrusted = false;

  /**
   * Issues `surface` (the baseline's deep-frozen surface) to one request. No tool is copied yet:
   * `copyTool` (a deep copy, in the reference stage) copies a tool when a hook first reaches it,
   * and every tool before the array's first write, so what hooks reach is always this request's
   * own mutable copy, and what nobody reached is the baseline itself.
   */
  constructor(surface: readonly Readonly<SurfaceTool>[], copyTool: (tool: Readonly<SurfaceTool>) => SurfaceTool) {
    const array = [...surface] as SurfaceTool[];
    this.#targets = [...surface];
    this.#copyTool = copyTool;
    this.#copied = new Uint8Array(surface.length);
    this.#array = array;
    this.length = surface.length;
    this.#proxies = new Array<SurfaceTool | undefined>(surface.length);
    this.#dirty = new Uint8Array(surface.length);
    this.tools = new Proxy(array, this.#arrayHandler());
  }

  /** Replaces the baseline's tool at `position` by this request's copy (in the array too: it has not been written yet). */
  #copy(position: number): void {
    if (this.#copied[position] === 1) return;
    const copy = this.#copyTool(this.#targets[position] as SurfaceTool);
    this.#targets[position] = copy;
    this.#array[position] = copy;
    this.#copied[position] = 1;
  }

  /** Before the array's first write: every position still holds the tool issued there, copied now. */
  #copyAll(): void {
    if (this.#allCopied) return;
    for (let position = 0; position < this.length; position += 1) this.#copy(position);
    this.#allCopied = true;
  }

  /** Whether nothing at all was written or exposed since the tracker was made. */
  get untouched(): boolean {
    return !this.#arrayWritten && this.#dirtyPositions.length === 0;
  }

  /** Whether the issued array itself was never written (its positions hold the issued tools, in order). */
  get arrayIntact(): boolean {
    return !this.#arrayWritten;
  }

  /** The positions of the tools written or exposed, ascending. */
  dirtyPositions(): number[] {
    return [...this.#sortedPositions()];
  }

  /**
   * The smallest position after `after` whose tool was written or exposed, or -1. Marks made
   * since the last call are included (a hook's getter may write another tool while a check reads).
   */
  nextDirty(after: number): number {
    const sorted = this.#sortedPositions();
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((sorted[middle] as number) <= after) low = middle + 1;
      else high = middle;
    }
    return low < sorted.length ? (sorted[low] as number) : -1;
  }

  #sortedPositions(): readonly number[] {
    if (this.#sortedCount !== this.#dirtyPositions.length) {
      this.#sorted = [...this.#dirtyPositions].sort((a, b) => a - b);
      this.#sortedCount = this.#sorted.length;
    }
    return this.#sorted;
  }

  /** The proxy of the tool issued at `position` (made on first use). */
  toolAt(position: number): SurfaceTool {
    let proxy = this.#proxies[position];
    if (proxy === undefined) {
      this.#copy(position);
      proxy = new Proxy(this.#targets[position] as SurfaceTool, this.#toolHandler(position));
      this.#proxies[position] = proxy;
      this.#positions.set(proxy, position);
    }
    return proxy;
  }

  /**
   * Whether `value`, found at `position`, is the tool issued there (its proxy, or the raw tool as
   * {@link readPosition} reports it), never written or exposed.
   */
  intactAt(position: number, value: unknown): boolean {
    return (
      value !== undefined &&
      !this.#arrayUntrusted &&
      this.#dirty[position] === 0 &&
      (value === this.#proxies[position] || value === this.#targets[position])
    );
  }

  /**
   * What `tools[position]` of the issued array proxy holds, as a check reads it: the raw tool
   * when it is the clean tool issued there (the check compares nothing then; the raw tool never
   * reaches a hook), its proxy when that tool was written, anything else as it is. An own data
   * property is read from the array directly (no trap, no code of a hook can run); a hole or an
   * accessor a hook defined is read through the proxy, as a hook would.
   * @throws whatever a hook's getter throws (the caller treats it as unreadable).
   */
  readPosition(position: number): unknown {
    const array = this.#array;
    if (this.#arrayUntrusted || !hasOwn.call(array, position)) return this.tools[position];
    const value = array[position];
    if (value !== this.#targets[position]) return value;
    return this.#dirty[position] === 0 ? value : this.toolAt(position);
  }

  /**
   * `value` to read for a full compare: the raw tool when `value` is one of this request's
   * proxies and that tool is clean (reading it directly marks nothing and runs no code of a
   * hook: a clean tool holds only the copy's own data members), else `value` itself.
   */
  readable(value: unknown): unknown {
    if (!isObject(value)) return value;
    const position = this.#positions.get(value);
    return position !== undefined && this.#dirty[position] === 0 ? this.#targets[position] : value;
  }

  #markTool(position: number): void {
    if (this.#dirty[position] === 1) return;
    this.#dirty[position] = 1;
    this.#dirtyPositions.push(position);
  }

  #arrayHandler(): ProxyHandler<SurfaceTool[]> {
    const targets = this.#targets;
    const length = this.length;
    const written = (): true => {
      this.#copyAll();
      this.#arrayWritten = true;
      return true;
    };
    return {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        if (!isObject(value)) return value;
        const position = positionOf(key, length);
        if (position < 0 || targets[position] !== value) return value;
        // A frozen array must report its own raw value (a proxy invariant): the tool is exposed.
        // Only a written array can be frozen, so a clean one skips the descriptor read.
        if (this.#arrayWritten) {
          const own = Reflect.getOwnPropertyDescriptor(target, key);
          if (own !== undefined && own.configurable === false && own.writable === false) {
            this.#markTool(position);
            return value;
          }
        }
        return this.toolAt(position);
      },
      getOwnPropertyDescriptor: (target, key) => {
        const own = Reflect.getOwnPropertyDescriptor(target, key);
        if (own === undefined || !('value' in own)) return own;
        const position = positionOf(key, length);
        if (position < 0 || targets[position] !== own.value) return own;
        if (own.configurable === false) {
          this.#markTool(position);
          return own;
        }
        return { ...own, value: this.toolAt(position) };
      },
      set: (target, key, value, receiver) => {
        if (!isIndexOrLength(key)) this.#arrayUntrusted = true;
        return written() && Reflect.set(target, key, value, receiver);
      },
      defineProperty: (target, key, descriptor) => {
        if ('get' in descriptor || 'set' in descriptor || !isIndexOrLength(key)) this.#arrayUntrusted = true;
        return written() && Reflect.defineProperty(target, key, descriptor);
      },
      deleteProperty: (target, key) => written() && Reflect.deleteProperty(target, key),
      setPrototypeOf: (target, prototype) => {
        this.#arrayUntrusted = true;
        return written() && Reflect.setPrototypeOf(target, prototype);
      },
      preventExtensions: (target) => written() && Reflect.preventExtensions(target),
    };
  }

  #toolHandler(position: number): ProxyHandler<SurfaceTool> {
    const mark = (): true => {
      this.#markTool(position);
      return true;
    };
    return {
      get: (target, key, receiver) => {
        const value: unknown = Reflect.get(target, key, receiver);
        if (isObject(value) && hasOwn.call(target, key)) this.#markTool(position);
        return value;
      },
      getOwnPropertyDescriptor: (target, key) => {
        const own = Reflect.getOwnPropertyDescriptor(target, key);
        if (own !== undefined && (isObject(own.value) || own.get !== undefined || own.set !== undefined))
          this.#markTool(position);
        return own;
      },
      set: (target, key, value, receiver) => mark() && Reflect.set(target, key, value, receiver),
      defineProperty: (target, key, descriptor) => mark() && Reflect.defineProperty(target, key, descriptor),
      deleteProperty: (target, key) => mark() && Reflect.deleteProperty(target, key),
      setPrototypeOf: (target, prototype) => mark() && Reflect.setPrototypeOf(target, prototype),
      preventExtensions: (target) => mark() && Reflect.preventExtensions(target),
    };
  }
}
