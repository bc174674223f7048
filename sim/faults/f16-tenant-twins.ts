/**
 * F16: several tenants on one server with the same role and different views of the same names: the
 * twin tenant sees each tool of the first audience under the same name with its own description
 * (`... (globex edition)`). A core that keys its catalog without the tenant serves one tenant's
 * descriptors to the other (I4).
 *
 * Models the catalog-admission report ("different tenants must not share caches"; "zero
 * cross-tenant cache hits").
 *
 * How often: on 3 servers in 4 of a round that enables F16, one twin audience for the whole round.
 */
import type { RoundPlan, ToolDescriptor } from '../plan/types.ts';
import type { FaultDefinition } from './fault.ts';
import type { ServerDraft } from './draft.ts';
import { perServer } from './internal/fragments.ts';
import { fraction } from './rates.ts';

/** How often F16 acts (scenario `faultRates.F16`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F16 that serve a twin tenant.'),
};

/** The description a twin tenant's copy of `tool` carries: its own edition. */
export function twinDescription(tool: ToolDescriptor, twinAudience: string): string {
  return `${String(tool.description ?? '')} (${twinAudience.split('.')[0]} edition)`;
}

/** Whether some view of the server's first step holds a twin tenant's edition of a tool. */
function hasTwinView(views: Readonly<Record<string, readonly ToolDescriptor[]>>): boolean {
  return Object.entries(views).some(([audience, view]) =>
    view.some((tool) => String(tool.description ?? '').endsWith(` (${audience.split('.')[0]} edition)`)),
  );
}

/**
 * The twin of the server's first audience: another tenant of the scenario with the same role, or
 * a made-up one (`acmex.dev`) when there is none.
 */
function twinOf(first: string, scenarioAudiences: readonly string[]): string {
  const [tenant, role] = first.split('.') as [string, string];
  const other = scenarioAudiences
    .map((audience) => audience.split('.') as [string, string])
    .find(([t, r]) => r === role && t !== tenant);
  return other === undefined ? `${tenant}x.${role}` : `${other[0]}.${other[1]}`;
}

/** Adds the twin audience (unless the server already serves it) with its own edition of the first audience's view. */
function addTwin(draft: ServerDraft): void {
  const { server } = draft;
  const first = server.audiences[0] as string;
  const twin = twinOf(first, draft.scenario.audiences);
  if (!server.audiences.includes(twin)) server.audiences.push(twin);
  const views = (server.history[0] as { views: Record<string, ToolDescriptor[]> }).views;
  views[twin] = (views[first] ?? []).map((tool) => ({ ...tool, description: twinDescription(tool, twin) }));
}

/** F16: tenant twins. */
export const F16: FaultDefinition<'F16', typeof RATES> = {
  id: 'F16',
  rates: RATES,
  title: 'several tenants on one server with the same role and different views of the same names',
  lifetime: 'trait',
  probes: ['tenant-twins-published'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => hasTwinView(server.history[0]?.views ?? {})),
  generate: { audiences: addTwin },
  fragment: (plan) => perServer(plan, (server) => server.audiences),
};
