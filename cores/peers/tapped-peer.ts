/**
 * What the adapters of real client libraries share: each connection runs through the exported
 * wire tap (`WireWatch.tap`, api/wire-watch.ts: scan ids on `tools/list`, pages copied before the
 * library sees them, leases on the requests that carry calls), and when the library hands back its
 * tool list, the adapter publishes the walk that list came from with the tools as the library
 * shows them. Which walk a list came from: the walk of the latest `tools/list` answer on the
 * connection; the world drains every promise job before it delivers the next message, so a
 * library that turns pages into a tool list without waiting on another message returns before
 * any later answer arrives.
 *
 * Fault model: none injected. What must hold: a published tool is the library's tool at the same
 * position as the walk's concatenated pages (the libraries here keep page order and drop only
 * tools they say they drop); a name that differs at that position means the pairing is wrong,
 * which is an adapter bug and throws. A list the library served from its own cache (no new
 * `tools/list` answer since the last publish of the key, or since the last publish from the
 * connection) is not a new snapshot and publishes nothing.
 *
 * The catalog key of a connection is `identity()|tenant.role` with the identity the server
 * presents now (docs/CORE-API.md): after the server rotates its identity (F7) the same connection
 * and the same library client serve the key at the new identity. A turn-driven adapter finds the
 * session's client for a disclosure through {@link Sessions}, by the identity each connection
 * presents at that moment, not the one it opened with.
 */
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { WireWatch } from '../../api/wire-watch.ts';
import { PeerHost, type ShownTool } from './peer-host.ts';

export { keyNow, Sessions } from './peer-host.ts';

/** One tool of a library's list: the name the model sees, and the name the server gave it. */
export interface ListedTool {
  name: string;
  servedName: string;
}

/** An SDK 1.x `Client` whose transport runs through a tap (`wire`, set by `connect`). */
export class TappedClient extends Client {
  wire: WireWatch | undefined;

  constructor(
    info: Implementation,
    options: ClientOptions,
    private readonly tapWith: (transport: Transport) => WireWatch,
  ) {
    super(info, options);
  }

  override async connect(transport: Transport): Promise<void> {
    this.wire = this.tapWith(transport);
    await super.connect(this.wire.transport);
  }
}

/** A peer adapter whose library talks over tapped transports. */
export abstract class TappedPeer extends PeerHost {
  /** `tools/list` answers on the key's connection when it was last published. */
  readonly #answersAtPublish = new Map<string, number>();
  /** `tools/list` answers on each connection when it last published (for any key). */
  readonly #wireAnswersAtPublish = new WeakMap<WireWatch, number>();
  /** The scan of another connection whose walk each key last published from a shared cache. */
  readonly #sharedAtPublish = new Map<string, string>();

  /** Wraps a connection's transport in a tap that numbers scans from this peer's counter. */
  protected tap(transport: Transport): WireWatch {
    return WireWatch.tap(transport, { nextScanId: () => this.nextScanId() });
  }

  /**
   * Whether `wire` has received a `tools/list` answer since `key` was last published and since
   * `wire` last published: a list read before an identity rotation and served again from the
   * library's cache is not published again under the new key.
   */
  protected hasNewWalk(key: string, wire: WireWatch): boolean {
    return (
      wire.latestWalk() !== undefined &&
      this.#answersAtPublish.get(key) !== wire.answers &&
      this.#wireAnswersAtPublish.get(wire) !== wire.answers
    );
  }

  /**
   * Publishes for `key` the latest walk on `wire` with `listed`, the library's tools in its order:
   * the name it shows the model and the served name it stands for. `descriptors` (default: the
   * walk's tools, in page order) are the served descriptors the list pairs with, by position.
   */
  protected publishWalk(
    key: string,
    wire: WireWatch,
    listed: readonly ListedTool[],
    descriptors?: readonly unknown[],
  ): void {
    const walk = wire.latestWalk();
    if (walk === undefined || !this.hasNewWalk(key, wire)) return;
    const served = descriptors ?? walk.pages.flatMap((page) => page.tools);
    const shown = listed.map(
      (tool, index): ShownTool => ({ name: tool.name, descriptor: pairedDescriptor(served, index, tool.servedName) }),
    );
    this.#answersAtPublish.set(key, wire.answers);
    this.#wireAnswersAtPublish.set(wire, wire.answers);
    this.publish(key, walk.scanId, walk.pages, shown);
  }

  /**
   * Publishes for `key` a list the library served from a response cache that another of this
   * host's connections filled (`source`, whose latest walk the list came from): the host shows
   * the model that list, so it is this key's snapshot, with the pages as they were served on the
   * other connection. Published once per (key, walk of `source`).
   */
  protected publishSharedWalk(key: string, source: WireWatch, listed: readonly ListedTool[]): void {
    const walk = source.latestWalk();
    if (walk === undefined || this.#sharedAtPublish.get(key) === walk.scanId) return;
    const served = walk.pages.flatMap((page) => page.tools);
    const shown = listed.map(
      (tool, index): ShownTool => ({ name: tool.name, descriptor: pairedDescriptor(served, index, tool.servedName) }),
    );
    this.#sharedAtPublish.set(key, walk.scanId);
    this.publish(key, walk.scanId, walk.pages, shown);
  }
}

/** The served descriptor at `index`; throws when it is missing or carries another name. */
function pairedDescriptor(served: readonly unknown[], index: number, name: string): unknown {
  const descriptor = served[index];
  const servedName = (descriptor as { name?: unknown } | undefined)?.name;
  if (servedName !== name)
    throw new Error(
      `peer adapter bug: the library's tool ${index} is "${name}" but the walk's is ${JSON.stringify(servedName)}`,
    );
  return descriptor;
}
