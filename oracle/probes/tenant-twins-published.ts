/**
 * Coverage probe `tenant-twins-published`: two tenants of one server with the same role both had
 * a catalog published, and the same tool name carries different descriptors in the two (F16's
 * situation: a core keyed without the tenant would serve one tenant's descriptors to the other).
 */
import { parseCatalogKey } from '../catalog-key.ts';
import type { KnownEvent, PublishedEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** One publish, its key parsed and its tools' descriptor digests by name (the last of a name wins). */
interface IndexedPublish {
  readonly publish: PublishedEvent;
  readonly identity: string;
  readonly tenant: string | undefined;
  readonly role: string | undefined;
  readonly digests: ReadonlyMap<string, string>;
}

function indexed(publish: PublishedEvent): IndexedPublish {
  const key = parseCatalogKey(publish.key);
  const [tenant, role] = key.audience.split('.');
  return {
    publish,
    identity: key.identity,
    tenant,
    role,
    digests: new Map(publish.tools.map((tool) => [tool.name, tool.descriptorDigest])),
  };
}

/** Whether two publishes show one tool name with two different descriptors. */
function sameNameOtherDescriptor(a: IndexedPublish, b: IndexedPublish): boolean {
  return a.publish.tools.some((tool) => b.digests.has(tool.name) && b.digests.get(tool.name) !== tool.descriptorDigest);
}

/** Same identity, same role, another tenant. */
function twinKeys(a: IndexedPublish, b: IndexedPublish): boolean {
  return a.identity === b.identity && a.role === b.role && a.tenant !== b.tenant;
}

/** Each publish is parsed once; then every pair, in trace order, as before. */
function tenantTwinsPublished(events: readonly KnownEvent[]): boolean {
  const publishes = events.filter((e): e is PublishedEvent => e.type === 'published').map(indexed);
  for (let i = 0; i < publishes.length; i += 1) {
    const a = publishes[i] as IndexedPublish;
    for (let j = i + 1; j < publishes.length; j += 1) {
      const b = publishes[j] as IndexedPublish;
      if (twinKeys(a, b) && sameNameOtherDescriptor(a, b)) return true;
    }
  }
  return false;
}

/** Tenant twins published with their own descriptors. */
export const tenantTwinsPublishedProbe: Probe = {
  name: 'tenant-twins-published',
  basis: 'reference',
  description: 'two tenants of one server and role published, with different descriptors under one tool name',
  hit: tenantTwinsPublished,
};
