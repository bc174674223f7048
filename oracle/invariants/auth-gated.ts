/**
 * Auth-gated discovery, I20 (issue 13 item 6; field report: "a listing refused for authorization
 * shown as an empty complete catalog"). A server that answers a scan's `tools/list` with the
 * authorization error (`page_refused` with code AUTHORIZATION_REQUIRED_CODE, -32003) has not told
 * the core what the audience's catalog is: it is unknown, not empty. Judged per scan, from the
 * world's record of the scan's requests:
 * - nothing of that scan is published (`AUTH_REFUSED_PUBLISHED`, anchored at the publish);
 * - if the scan ended after the refusal, it ended INCOMPLETE with reason AUTH_REQUIRED, a state of
 *   its own, so that neither a retry policy nor an operator mistakes it for an empty or a failed
 *   listing (`AUTH_REFUSAL_MISREPORTED`, anchored at the `scan_ended`). INCOMPLETE DISCONNECTED
 *   and TIMEOUT are accepted too: the refusal may never have reached the core (a cut connection,
 *   F15, loses the reply in flight). A scan that had already ended is not judged.
 */
import { AUTHORIZATION_REQUIRED_CODE } from '../../contract/trace/codes.ts';
import type { PageRefusedEvent } from '../trace.ts';
import type { CheckContext, Findings } from './check-context.ts';

/**
 * The INCOMPLETE reasons a refused scan may end with: AUTH_REQUIRED, or a cut connection or a
 * timeout that kept the refusal from reaching the core (the world served it; the reply was lost).
 */
const REFUSAL_MAY_BE_UNSEEN: ReadonlySet<string> = new Set(['AUTH_REQUIRED', 'DISCONNECTED', 'TIMEOUT']);

/** Checks I20 over every scan the server refused for authorization. */
export function checkAuthGated(context: CheckContext, findings: Findings): void {
  for (const [scanId, requests] of context.truth.scans) {
    const refusal = requests.requests.find(
      (request): request is PageRefusedEvent =>
        request.type === 'page_refused' && request.code === AUTHORIZATION_REQUIRED_CODE,
    );
    if (refusal === undefined) continue;
    findings.count('I20');
    const refused = `the server refused scan "${scanId}" for authorization (page_refused seq ${refusal.seq}, ${refusal.server} ${refusal.audience})`;
    for (const publish of context.observed.published.filter((event) => event.scanId === scanId)) {
      findings.add(
        'I20',
        publish.seq,
        'AUTH_REFUSED_PUBLISHED',
        `publish seq ${publish.seq} (generation ${publish.generation}, ${publish.tools.length} tools, ${publish.status}) comes from a scan ${refused}: its catalog is unknown, not complete`,
      );
    }
    const end = context.observed.scanEnds.get(scanId);
    if (end === undefined || end.seq < refusal.seq) continue;
    if (end.state === 'INCOMPLETE' && REFUSAL_MAY_BE_UNSEEN.has(end.reason)) continue;
    findings.add(
      'I20',
      end.seq,
      'AUTH_REFUSAL_MISREPORTED',
      `scan_ended seq ${end.seq} says ${end.state} ${end.reason}, but ${refused}: it must end INCOMPLETE AUTH_REQUIRED`,
    );
  }
}
