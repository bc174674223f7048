/**
 * F29: a stateless gateway in front of a modern-era server (MCP 2026-07-28) drops every
 * notification while `tools.listChanged` stays declared. The host speaks 2025-11-25 to the gateway
 * (an `initialize` session that declares `listChanged: true`), the gateway forwards each request
 * to the server and passes its pages through, but it holds no `subscriptions/listen` stream to the
 * server (a stateless node has nowhere to keep one), so no change ever reaches the host as a
 * `notifications/tools/list_changed`. The catalog then converges only by polling: a host that
 * trusts the declared capability, or a page's `ttlMs`, and waits for a push keeps its old catalog
 * (judged by I33, the catalog converges by polling within the scenario's bound, and by I12 at the
 * round's end).
 *
 * Models issue 29's fault "a stateless gateway in front of a stateful server that drops every
 * notification while `listChanged` stays declared" and seed 002's failure mode ("stateless
 * gateways in front of stateful servers that drop the notifications"), with the fact sheet's
 * section 4: in the SDK's stateless HTTP mode `sendToolListChanged()` goes nowhere, and in
 * 2026-07-28 list changes flow only on the `subscriptions/listen` response stream.
 *
 * How often: on every gateway server (`era: 'gateway'`, an `eraMix` of `gateway`) of a round that
 * enables F29 (serverFraction 1), for the whole round: each change is recorded as a notification
 * the gateway lost (`notification_sent` with `delivered: false`). The plan may mark a server that
 * is not behind a gateway; it then notifies as usual.
 */
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { ServerRule } from '../server/rules.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { fraction } from './rates.ts';
import { boolean } from '../plan/schema-parts.ts';

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F29: the server's gateway is stateless and relays no notification; absent: it relays them. */
    gatewayDropsNotifications?: boolean;
  }
}

/** How often F29 acts (scenario `faultRates.F29`), with its defaults. */
export const RATES = {
  serverFraction: fraction(1, 'Share of the servers of a round that enables F29 whose gateway relays no notification.'),
};

/** Whether the plan puts the server behind a gateway that drops every notification. */
function drops(server: ServerPlan): boolean {
  return server.era === 'gateway' && server.gatewayDropsNotifications === true;
}

/** Every notification is lost at the gateway; the capability the host was offered is untouched. */
function rules(server: ServerPlan): ServerRule[] {
  return drops(server) ? [{ onNotification: () => 'drop' }] : [];
}

/** F29: a stateless gateway drops every notification. */
export const F29: FaultDefinition<'F29', typeof RATES> = {
  id: 'F29',
  rates: RATES,
  plan: { server: { gatewayDropsNotifications: { schema: boolean } } },
  title:
    'a stateless gateway in front of a modern server drops every list_changed while `listChanged` stays declared (eraMix "gateway")',
  lifetime: 'trait',
  probes: ['notification-dropped-at-gateway'],
  presentIn: (plan: RoundPlan) => plan.servers.some(drops),
  generate: {
    shape(draft) {
      draft.server.gatewayDropsNotifications = true;
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.gatewayDropsNotifications ?? false),
  serverRules: rules,
  serverReductions: (server) =>
    server.gatewayDropsNotifications === true
      ? [{ name: 'a gateway that relays notifications', server: { ...server, gatewayDropsNotifications: false } }]
      : [],
};
