/**
 * Tenant isolation, I4 (SPEC section 11): no serving across tenants or roles; a snapshot is only
 * used for its own catalog key. Judged on every `disclosure` (what the planner was shown):
 * - the disclosed (`key`, `generation`) was published earlier in the trace; the latest such
 *   publish before the disclosure is the one judged;
 * - `key` is exactly `<identity>|<audience>`, where `audience` is the disclosure's and `identity`
 *   the one the disclosure's server presented at that moment (its latest `server_up` or
 *   `identity_rotated` before the disclosure), so a generation scanned under an identity the server
 *   has since rotated away from is foreign too;
 * - every page served in the publish's scan (every `page_served` of its scanId, wherever it sits in
 *   the trace) was served by the disclosure's server to the disclosure's audience;
 * - the disclosure shows that publish's snapshot: the same `snapshotDigest`, and `tools` equal to
 *   the published tools' descriptor digests in order, whatever their verdicts (the trace records
 *   what was shown; a generation is shown whole).
 *
 * - whatever the trace's labels say, every descriptor the disclosure showed reached the core from
 *   the disclosure's server for the disclosure's audience: a digest that server only ever served
 *   to another audience (a twin tenant's edition, F16) is another tenant's tool shown here. This
 *   is judged from the world's pages alone, so a core that labels a shared cache entry with each
 *   asker's own key is caught by what it showed, not by how it named it.
 *
 * Codes: `FOREIGN_TOOL` (a shown descriptor was served by that server only to another audience
 * before the disclosure; judged on every disclosure, first), `DISCLOSED_UNKNOWN_GENERATION` (no publish of that key and generation before the
 * disclosure; nothing else is judged then), `FOREIGN_KEY` (the key is not the server's current
 * identity with the disclosure's audience), `FOREIGN_PAGES` (a page of the publish's scan went to
 * another server or audience), `DISCLOSED_SNAPSHOT_MISMATCH` (another snapshot digest than the
 * publish's), `DISCLOSED_TOOLS_MISMATCH` (other tools than the publish's, or another order). Each
 * code is reported at most once per disclosure; all are anchored at the disclosure.
 */
import { formatCatalogKey } from '../catalog-key.ts';
import { publishOfGeneration } from '../observations.ts';
import type { DisclosureEvent, PublishedEvent } from '../trace.ts';
import { disclosureLabel, shortHex, shortKey } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';

/** Checks I4 over every disclosure of the round. */
export function checkTenantIsolation(context: CheckContext, findings: Findings): void {
  for (const disclosure of context.truth.disclosures) {
    findings.count('I4');
    checkServedTools(context, disclosure, findings);
    const publish = publishOfGeneration(context.observed, disclosure.key, disclosure.generation, disclosure.seq);
    if (publish === null) {
      findings.add(
        'I4',
        disclosure.seq,
        'DISCLOSED_UNKNOWN_GENERATION',
        `${disclosureLabel(disclosure)} shows generation ${disclosure.generation} of key ${shortKey(disclosure.key)}, which was not published before it`,
      );
      continue;
    }
    checkKey(context, disclosure, findings);
    checkPages(context, disclosure, publish, findings);
    checkSnapshot(disclosure, publish, findings);
    checkTools(disclosure, publish, findings);
  }
}

/** Every shown descriptor must have been served by the disclosure's server to its audience; reports the first that was not. */
function checkServedTools(context: CheckContext, disclosure: DisclosureEvent, findings: Findings): void {
  const server = context.truth.servers.get(disclosure.server);
  if (server === undefined) return;
  for (const digest of disclosure.tools) {
    const other = server.servedOnlyToOthers(digest, disclosure.audience, disclosure.seq);
    if (other === null) continue;
    findings.add(
      'I4',
      disclosure.seq,
      'FOREIGN_TOOL',
      `${disclosureLabel(disclosure)} shows descriptor ${shortHex(digest)}, which ${disclosure.server} served only to ${other.audience} (first at seq ${other.seq}), never to ${disclosure.audience}`,
    );
    return;
  }
}

/** How a disclosure names what it showed, for evidence. */
function shown(disclosure: DisclosureEvent, publish: PublishedEvent): string {
  return `generation ${disclosure.generation} of key ${shortKey(disclosure.key)} (publish seq ${publish.seq})`;
}

/** The key must be the server's identity at the time, with the disclosure's audience. */
function checkKey(context: CheckContext, disclosure: DisclosureEvent, findings: Findings): void {
  const change = context.truth.servers.get(disclosure.server)?.identityBefore(disclosure.seq) ?? null;
  const label = `${disclosureLabel(disclosure)} shows key ${shortKey(disclosure.key)}`;
  if (change === null) {
    findings.add(
      'I4',
      disclosure.seq,
      'FOREIGN_KEY',
      `${label}, but server ${disclosure.server} presented no identity before it`,
    );
    return;
  }
  const expected = formatCatalogKey(change.identity, disclosure.audience);
  if (disclosure.key === expected) return;
  findings.add(
    'I4',
    disclosure.seq,
    'FOREIGN_KEY',
    `${label}, but ${disclosure.server} presented identity ${shortHex(change.identity)} since seq ${change.seq}, so the key is ${shortKey(expected)}`,
  );
}

/** Every page of the publish's scan must have gone to the disclosure's server and audience. */
function checkPages(
  context: CheckContext,
  disclosure: DisclosureEvent,
  publish: PublishedEvent,
  findings: Findings,
): void {
  const foreign =
    context.truth.scans.get(publish.scanId)?.firstPageNotServedTo(disclosure.server, disclosure.audience) ?? null;
  if (foreign === null) return;
  findings.add(
    'I4',
    disclosure.seq,
    'FOREIGN_PAGES',
    `${disclosureLabel(disclosure)} shows ${shown(disclosure, publish)}, whose scan "${publish.scanId}" had a page served at seq ${foreign.seq} to ${foreign.server} ${foreign.audience}`,
  );
}

function checkSnapshot(disclosure: DisclosureEvent, publish: PublishedEvent, findings: Findings): void {
  if (disclosure.snapshotDigest === publish.snapshotDigest) return;
  findings.add(
    'I4',
    disclosure.seq,
    'DISCLOSED_SNAPSHOT_MISMATCH',
    `${disclosureLabel(disclosure)} names snapshot ${shortHex(disclosure.snapshotDigest)}, but ${shown(disclosure, publish)} is snapshot ${shortHex(publish.snapshotDigest)}`,
  );
}

/** The shown digests must be the published tools' digests, in order; reports the first difference. */
function checkTools(disclosure: DisclosureEvent, publish: PublishedEvent, findings: Findings): void {
  const count = Math.max(disclosure.tools.length, publish.tools.length);
  for (let index = 0; index < count; index += 1) {
    const has = disclosure.tools[index];
    const want = publish.tools[index]?.descriptorDigest;
    if (has === want) continue;
    findings.add(
      'I4',
      disclosure.seq,
      'DISCLOSED_TOOLS_MISMATCH',
      `${disclosureLabel(disclosure)} shows ${orNothing(has)} as tool ${index + 1}, but ${shown(disclosure, publish)} has ${orNothing(want)} (${disclosure.tools.length} shown, ${publish.tools.length} published)`,
    );
    return;
  }
}

function orNothing(digest: string | undefined): string {
  return digest === undefined ? 'nothing' : shortHex(digest);
}
