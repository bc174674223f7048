/**
 * I33, convergence by polling (SPEC section 11; issue 29): when nothing pushes a change to the
 * core, its polling alone must bring the catalog up to date within the scenario's bound. A
 * 2026-07-28 server has no push channel at all in the stateless HTTP core, only the listen stream
 * elsewhere, and a stateless gateway in front of it drops every notification while `listChanged`
 * stays declared (F29); a page's `ttlMs` is "a freshness hint, not a guarantee" (F30), so it is no
 * reason to wait. The world writes each change (`revision`) and each notification it delivered
 * (`notification_delivered`); this check reads nothing else of the core than I19 does.
 *
 * Judged for every server whose latest boot speaks 2026-07-28 to the host or through a gateway
 * (trait `ERA:modern` or `ERA:gateway`), never disqualified (the traits liveness, I12, exempts), and
 * for every audience a client of the core opened a session as: at every `revision` after the first
 * that changes the audience's view (as a set of descriptor digests) and after that audience's first
 * session opened, when no `list_changed` of that server and audience reached the core after the
 * change and by the deadline (a delivered one is I19's, with its shorter bound), the server must
 * answer page 1 of a fresh list for that audience (a cursorless request that is not the final
 * recheck of a walk begun before; a refusal of it counts) by the deadline. The deadline is I19's
 * with R = max(`refreshIntervalMs`, `retryBackoffMsMax`, `listChangedDelayMs`): R plus one link
 * latency after the change, or after the end of the walks the world was then serving that audience
 * plus a latency, or after the arrival at the core of the world's last answer before the change,
 * whichever is later (list-changed.ts, `freshListDue`), with I19's exemptions: a walk running at the
 * change that never ended, a deadline after the round's end, a rotation, a cut connection or a
 * served quarantine by the deadline, and the restart rule. A fresh list, not a publish, is what is
 * owed by then: whether what the core read became its catalog is I1's and I2's, and I12 judges the
 * catalog at the end of the quiet tail.
 *
 * Why R is the refresh interval: it is the scenario's own figure for how long a healthy core may
 * leave a list unread (SPEC section 6: the catalog is rescanned that long after each scan), the
 * back-off cap bounds the wait after a failed walk, and the coalescing delay the wait after a
 * notification. A TTL is no part of it: the core may not stretch its polling to a server's TTL
 * (2026-07-28: clients SHOULD NOT poll on the TTL, and the server MAY change before it expires).
 * Not judged without `refreshIntervalMs` in the header (written in rounds with a 2026-07-28 server)
 * or without `listChangedDelayMs`.
 *
 * Code: `NOT_POLLED`, anchored at the `revision`.
 */
import { formatCatalogKey } from '../catalog-key.ts';
import { DISQUALIFYING_TRAIT_PREFIXES, hasTraitPrefix, type ServerModel } from '../ground-truth.ts';
import type { ViewTool } from '../trace.ts';
import { shortKey } from '../violation.ts';
import type { CheckContext, Findings } from './check-context.ts';
import { freshListDue, sessionScansFor, type FreshListAnchor, type SessionScans } from './list-changed.ts';

/** The traits of a server that speaks 2026-07-28, to the host or through a gateway. */
const MODERN_ERA_TRAITS: readonly string[] = ['ERA:modern', 'ERA:gateway'];

/** Checks I33 over every change of a modern-era server's views. */
export function checkPolling(context: CheckContext, findings: Findings): void {
  const { refreshIntervalMs, listChangedDelayMs, retryBackoffMsMax } = context.bounds;
  if (refreshIntervalMs === undefined || listChangedDelayMs === undefined) return;
  const waitMs = Math.max(refreshIntervalMs, retryBackoffMsMax, listChangedDelayMs);
  const sessions = sessionScansFor(context);
  for (const server of context.truth.servers.values()) {
    const boot = server.latestBoot();
    if (boot === null || !hasTraitPrefix(boot, MODERN_ERA_TRAITS)) continue;
    if (server.everHadTrait(DISQUALIFYING_TRAIT_PREFIXES)) continue;
    for (const anchor of unpushedChanges(context, server)) checkPolled(context, anchor, sessions, waitMs, findings);
  }
}

/** Every change of an audience's view after its first session opened, as an anchor. */
function unpushedChanges(context: CheckContext, server: ServerModel): FreshListAnchor[] {
  const anchors: FreshListAnchor[] = [];
  for (const audience of server.sessionAudiences) {
    const opened = context.truth.sessionOpens.find(
      (event) => event.server === server.id && event.audience === audience,
    );
    if (opened === undefined) continue;
    server.revisions.forEach((revision, index) => {
      const before = server.revisions[index - 1];
      if (before === undefined || revision.seq < opened.seq) return;
      if (sameTools(before.views.get(audience), revision.views.get(audience))) return;
      anchors.push({ seq: revision.seq, t: revision.t, server: server.id, audience });
    });
  }
  return anchors.sort((a, b) => a.seq - b.seq);
}

/** Whether two views hold the same descriptors (as sets of digests; an absent view is empty). */
function sameTools(a: readonly ViewTool[] | undefined, b: readonly ViewTool[] | undefined): boolean {
  const digests = (view: readonly ViewTool[] | undefined): string =>
    JSON.stringify([...new Set((view ?? []).map((tool) => tool.digest))].sort());
  return digests(a) === digests(b);
}

/** One unpushed change: a fresh list by the deadline, unless a notification carried it (I19's). */
function checkPolled(
  context: CheckContext,
  anchor: FreshListAnchor,
  sessions: SessionScans,
  waitMs: number,
  findings: Findings,
): void {
  const due = freshListDue(context, anchor, sessions, waitMs);
  if (due === null) return;
  const pushed = context.truth.notificationDeliveries.some(
    (delivery) =>
      delivery.server === anchor.server &&
      delivery.audience === anchor.audience &&
      delivery.seq > anchor.seq &&
      delivery.t <= due.deadline,
  );
  if (pushed) return;
  findings.count('I33');
  const { next, deadline } = due;
  if (next !== null && next.t <= deadline) return;
  const identity = context.truth.servers.get(anchor.server)?.identityBefore(anchor.seq)?.identity ?? anchor.server;
  const seen =
    next === null
      ? 'the server answered no fresh tools/list for that audience after it'
      : `the server answered the next fresh tools/list for that audience at t=${next.t} (seq ${next.seq})`;
  findings.add(
    'I33',
    anchor.seq,
    'NOT_POLLED',
    `the view of ${shortKey(formatCatalogKey(identity, anchor.audience))} changed at t=${anchor.t} (revision seq ${anchor.seq}) and no list_changed reached the core; a fresh list was due by t=${deadline} (R ${waitMs} ms), but ${seen}`,
  );
}
