/**
 * The catalog most surface tests use: a research host's market and web tools (seed 003's own
 * examples), one tool the grant does not hold and one the content checks quarantine. Not part
 * of the library.
 *
 * Snapshot order and what the baseline keeps:
 * 0 market__search_instruments      granted      → surface[0]
 * 1 write_report                    not granted  (left out)
 * 2 market__get_instrument_profile  granted      → surface[1]
 * 3 market__web_search              granted      → surface[2]
 * 4 broken_tool                     granted, quarantined (root schema not an object) (left out)
 * 5 read_page                       granted      → surface[3]
 */
import type { GenerationRecord } from '../../registry/store.ts';
import type { AdmissionFacts } from '../admission-facts.ts';
import { InMemoryRequestLedger } from '../in-memory-request-ledger.ts';
import type { RequestOwner } from '../request-ledger.ts';
import { descriptor, factsOf, generationOf } from './generation.ts';

/** The six descriptors, as the server lists them. */
export const CATALOG: readonly Record<string, unknown>[] = [
  descriptor(
    'market__search_instruments',
    'Search listed funds and ETFs by name, ticker or theme. Returns at most 20 matches.',
    { query: { type: 'string', description: 'Search text' } },
  ),
  descriptor('write_report', "Save a report to the user's workspace.", {
    title: { type: 'string' },
    body: { type: 'string' },
  }),
  descriptor(
    'market__get_instrument_profile',
    'Fetch the public profile of one instrument: issuer, fees, holdings date.',
    { symbol: { type: 'string', description: 'Ticker symbol' } },
  ),
  descriptor('market__web_search', 'Search the public web through the host gateway. Subject to the search quota.', {
    query: { type: 'string' },
    limit: { type: 'integer', minimum: 1, maximum: 10 },
  }),
  { name: 'broken_tool', description: 'A tool whose schema root is not an object.', inputSchema: { type: 'string' } },
  descriptor('read_page', 'Read one page of a public source by URL. Returns its text.', {
    url: { type: 'string', format: 'uri' },
  }),
];

/** What the grant holds: every tool but write_report (broken_tool is granted but quarantined). */
export const GRANTED: readonly string[] = [
  'market__search_instruments',
  'market__get_instrument_profile',
  'market__web_search',
  'broken_tool',
  'read_page',
];

/** The baseline's names, in order (worked out from the table in the file header). */
export const SURFACE_NAMES: readonly string[] = [
  'market__search_instruments',
  'market__get_instrument_profile',
  'market__web_search',
  'read_page',
];

/** Generation 1 of the catalog (built once per test file). */
export function researchGeneration(): GenerationRecord {
  return generationOf(CATALOG);
}

/** A ledger, a reservation of `requestId` in session s1, and the owner to hand the stage. */
export function reserved(
  requestId = 'turn-1',
  ledger = new InMemoryRequestLedger(),
): { ledger: InMemoryRequestLedger; owner: RequestOwner } {
  const reservation = ledger.reserve({ requestId, session: 's1' });
  return { ledger, owner: { ledger, reservation } };
}

/** The research facts: generation 1 and the grant above, session s1, policy epoch 3. */
export function researchFacts(
  generation: GenerationRecord = researchGeneration(),
  extra: Partial<AdmissionFacts> = {},
): AdmissionFacts {
  return factsOf(generation, GRANTED, extra);
}
