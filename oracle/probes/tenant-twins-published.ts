/**
 * Coverage probe `tenant-twins-published`: two tenants of one server with the same role both had
 * a catalog published, and the same tool name carries different descriptors in the two (F16's
 * situation: a core keyed without the tenant would serve one tenant's descriptors to the other).
 */
import { parseCatalogKey } from '../catalog-key.ts';
import type { KnownEvent, PublishedEvent } from '../trace.ts';
import type { Probe } from './probe.ts';

/** The descriptor digest of each tool name of one publish. */
function digestsByName(publish: PublishedEvent): Map<string, string> {
  return new Map(publish.tools.map((tool) => [tool.name, tool.descriptorDigest]));
}

/** Whether two publishes show one tool name with two different descriptors. */
function sameNameOtherDescriptor(a: PublishedEvent, b: PublishedEvent): boolean {
  const theirs = digestsByName(b);
  return a.tools.some((tool) => theirs.has(tool.name) && theirs.get(tool.name) !== tool.descriptorDigest);
}

/** Same identity, same role, another tenant. */
function twinKeys(a: string, b: string): boolean {
  const [ka, kb] = [parseCatalogKey(a), parseCatalogKey(b)];
  const [ta, ra] = ka.audience.split('.');
  const [tb, rb] = kb.audience.split('.');
  return ka.identity === kb.identity && ra === rb && ta !== tb;
}

function tenantTwinsPublished(events: readonly KnownEvent[]): boolean {
  const publishes = events.filter((e): e is PublishedEvent => e.type === 'published');
  return publishes.some((a, i) => publishes.slice(i + 1).some((b) => twinKeys(a.key, b.key) && sameNameOtherDescriptor(a, b)));
}

/** Tenant twins published with their own descriptors. */
export const tenantTwinsPublishedProbe: Probe = {
  name: 'tenant-twins-published',
  description: 'two tenants of one server and role published, with different descriptors under one tool name',
  hit: tenantTwinsPublished,
};
