/**
 * F5 (trait): cursors misbehave for the whole round: a repeated cursor, a cycle A -> B -> A, an
 * always-empty-string cursor, never-ending pages, the cursor ignored (page 1 again), or an empty
 * page with a next cursor inserted between real pages (legal: a correct core walks through it).
 * Loops must be quarantined (I13), never followed forever or published.
 *
 * Models the catalog-admission report ("duplicate cursors, cursor loops"); never-ending pages
 * stand for a server whose paging never terminates.
 *
 * How often: on 3 servers in 4 of a round that enables F5, one of the six misbehaviours, drawn
 * uniformly. Every one but the empty page exempts the server from liveness (trait `F5:<kind>`).
 */
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import { encodeCursor, type CursorPosition } from '../server/cursor.ts';
import type { PageRequest, ServedPage, ServePage, ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { fraction, choices } from './rates.ts';

/** Every cursor misbehaviour, in the order the schema and the default rates list them. */
const CURSOR_TRAITS = ['repeat', 'cycle', 'always-empty', 'never-ending', 'ignored', 'empty-page-with-next'] as const;

/** Cursor misbehaviour (F5), a persistent trait. */
export type CursorTrait = (typeof CURSOR_TRAITS)[number];

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F5: how the server's cursors misbehave, a persistent trait; null: they behave. */
    cursorTrait: CursorTrait | null;
  }
}

/** How often F5 acts (scenario `faultRates.F5`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F5 whose cursors misbehave.'),
  cursorTraits: choices(CURSOR_TRAITS, 'The misbehaviours drawn from, uniformly, one per server.'),
};

/** Whether a cursor trait exempts the server from liveness: all but the legal empty page. */
function disqualifying(trait: CursorTrait | null): boolean {
  return trait !== null && trait !== 'empty-page-with-next';
}

/** The `server_up` trait label: `F5:<kind>`, or `PAGING:empty-page-with-next` for the legal one. */
function traitLabels(server: ServerPlan): string[] {
  const trait = server.cursorTrait;
  if (trait === null) return [];
  return [disqualifying(trait) ? `F5:${trait}` : `PAGING:${trait}`];
}

/** A page whose next cursor is replaced. */
function withNext(page: ServedPage, nextCursor: string | undefined): ServedPage {
  return { ...page, nextCursor };
}

/** The next cursor of a cycle A -> B -> A: A points at offset pageSizeMax, B at twice that. */
function cycleCursor(position: CursorPosition, boot: number, pageSizeMax: number): string {
  const a = { boot, offset: pageSizeMax, empty: false };
  const atA = position.offset === a.offset && position.offset !== 0;
  return encodeCursor(atA ? { ...a, offset: 2 * a.offset } : a);
}

/** The page rule of each cursor misbehaviour. */
function pageRule(trait: CursorTrait, pageSizeMax: number): ServerRule {
  const rules: Record<CursorTrait, (request: PageRequest, serve: ServePage) => ServedPage> = {
    'always-empty': (request, serve) => withNext(serve(request), ''),
    'never-ending': (request, serve) => {
      const page = serve(request);
      return withNext(page, encodeCursor({ boot: request.boot, offset: page.nextOffset, empty: false }));
    },
    repeat: (request, serve) => {
      const page = serve(request);
      return withNext(page, request.cursor ?? page.nextCursor);
    },
    cycle: (request, serve) => withNext(serve(request), cycleCursor(request.position, request.boot, pageSizeMax)),
    ignored: (request, serve) => serve({ ...request, position: { ...request.position, offset: 0 } }),
    'empty-page-with-next': (request, serve) => {
      // An inserted empty page: no tools, and a cursor to the real page it stands before.
      if (request.position.empty)
        return {
          tools: [],
          nextCursor: encodeCursor({ ...request.position, empty: false }),
          reported: request.revision,
          nextOffset: request.position.offset,
        };
      const page = serve(request);
      return withNext(
        page,
        page.nextCursor === undefined
          ? undefined
          : encodeCursor({ boot: request.boot, offset: page.nextOffset, empty: true }),
      );
    },
  };
  return { onPage: rules[trait] };
}

/** The rules of a server's cursor trait; the always-empty trait also resolves its "" to page 2. */
function rules(server: ServerPlan): ServerRule[] {
  const trait = server.cursorTrait;
  if (trait === null) return [];
  const out: ServerRule[] = [];
  if (trait === 'always-empty') {
    out.push({
      onCursor: (cursor, position, boot) =>
        cursor === '' ? { boot, offset: server.pageSizeMax, empty: false } : position,
    });
  }
  out.push(pageRule(trait, server.pageSizeMax));
  return out;
}

/** F5: cursor misbehaviour. */
export const F5: FaultDefinition<'F5', typeof RATES> = {
  id: 'F5',
  rates: RATES,
  plan: {
    server: {
      cursorTrait: {
        schema: {
          title: `null or one of ${CURSOR_TRAITS.map((trait) => `"${trait}"`).join(', ')}`,
          enum: [null, ...CURSOR_TRAITS],
        },
        healthy: null,
      },
    },
  },
  title:
    'cursors: repeated cursor, cycle A→B→A, always-empty-string cursor, never-ending pages, empty page with a next cursor, cursor ignored (page 1 again)',
  lifetime: 'trait',
  probes: ['cursor-loop-quarantined', 'page-limit-quarantined', 'cursor-loop-served'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => server.cursorTrait !== null),
  generate: {
    shape(draft, rng, rates) {
      draft.server.cursorTrait = rng.pick(rates.cursorTraits);
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.cursorTrait),
  traits: traitLabels,
  disqualifies: (server) => disqualifying(server.cursorTrait),
  serverRules: rules,
  size: (plan) => plan.servers.filter((server) => server.cursorTrait !== null).length,
  serverReductions: (server) =>
    server.cursorTrait === null ? [] : [{ name: 'honest cursors', server: { ...server, cursorTrait: null } }],
};
