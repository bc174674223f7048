/**
 * F3: `notifications/tools/list_changed` misbehaves: sent right after page 2 of a scan, late
 * (after the scan ended), duplicated in bursts, never sent although `tools.listChanged` is
 * declared, or sent without declaring it. A notification is a hint, never a proof (SPEC section
 * 3).
 *
 * Models the catalog-admission report ("inject list_changed after page 2 ... late notifications
 * after the scan ends") and the guessed-names report (servers that declare `listChanged: true` but
 * never fire it; the client scheduling race of a notification arriving mid-turn).
 *
 * How often: on 3 servers in 4 of a round that enables F3; each such server leaves the capability
 * undeclared 1 time in 5, sends nothing on a change 1 time in 4, notifies after page 2 half the
 * time, delays its notifications by 100 to 1,500 ms half the time, and sends 1 to 3 copies of
 * each. Page-2 notifications and late delivery stop at T_heal.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RoundPlan, ServerPlan } from '../plan/types.ts';
import type { RuleEnv, ServerRule } from '../server/rules.ts';
import type { LinkRule } from '../transport/link-rules.ts';
import { drawIn } from '../plan/draws.ts';
import type { FaultDefinition } from './fault.ts';
import { perServer } from './internal/fragments.ts';
import { fraction, counts, msRange } from './rates.ts';
import { boolean, ms, object, positive } from '../plan/schema-parts.ts';

/** How a server sends `tools/list_changed` (F3). */
export interface NotificationPlan {
  /** Whether the server declares `tools.listChanged` in its capabilities. */
  declared: boolean;
  /** Whether it sends the notification on a change at all. */
  sendOnChange: boolean;
  /** Extra notification after serving page 2 of a scan, until T_heal. */
  afterPage2: boolean;
  /** Added to the notification's delivery latency until T_heal (late notifications), ms. */
  lateByMs: number;
  /** Each change notification is sent this many times (duplicates), >= 1. */
  copies: number;
}

declare module '../plan/types.ts' {
  interface ServerPlan {
    /** F3: how the server sends `tools/list_changed`. */
    notifications: NotificationPlan;
  }
}

/** How often F3 acts (scenario `faultRates.F3`), with its defaults. */
export const RATES = {
  serverFraction: fraction(0.75, 'Share of the servers of a round that enables F3 whose notifications misbehave.'),
  undeclaredFraction: fraction(
    0.2,
    'Chance that such a server does not declare tools.listChanged (it still sends notifications).',
  ),
  silentFraction: fraction(0.25, 'Chance that it sends no notification on a change.'),
  afterPage2Fraction: fraction(0.5, 'Chance that it notifies right after page 2 of every scan, until T_heal.'),
  lateFraction: fraction(0.5, 'Chance that its notifications arrive late until T_heal.'),
  lateByMs: msRange(100, 1500, 'How late, ms (added to the link latency).'),
  copies: counts(1, 3, 'Copies of each change notification it sends (bursts).', 1),
};

/** The notification plan of a server without F3: declared, sent once on every change. */
export const HEALTHY_NOTIFICATIONS: Readonly<NotificationPlan> = {
  declared: true,
  sendOnChange: true,
  afterPage2: false,
  lateByMs: 0,
  copies: 1,
};

/** Whether a server's notification plan differs from the healthy one. */
export function notificationsFaulty(n: NotificationPlan): boolean {
  return n.afterPage2 || n.lateByMs > 0 || n.copies > 1 || !n.sendOnChange || !n.declared;
}

/**
 * The rules of a server's notification plan: an undeclared capability, the number of
 * notifications a change sends (none, or copies), and one notification right after page 2 of a
 * scan until T_heal. Late delivery is a link rule (`lateLinkRule`).
 */
function rules(server: ServerPlan, env: RuleEnv): ServerRule[] {
  const n = server.notifications;
  const out: ServerRule[] = [];
  if (!n.declared) out.push({ onCapabilities: () => ({}) });
  if (!n.sendOnChange || n.copies !== 1) out.push({ onChange: () => (n.sendOnChange ? n.copies : 0) });
  if (n.afterPage2) out.push(afterPage2Rule(env));
  return out;
}

/** Counts the pages served to each scan, and notifies the scan's session right after its page 2. */
function afterPage2Rule(env: RuleEnv): ServerRule {
  const pagesPerScan = new Map<string, number>();
  return {
    afterPage({ scanId, sessionAudience }, control) {
      if (scanId === null || env.now() >= env.tHealMs) return;
      const served = (pagesPerScan.get(scanId) ?? 0) + 1;
      pagesPerScan.set(scanId, served);
      if (served === 2) control.notifySoon(sessionAudience);
    },
  };
}

/**
 * Late notifications: until T_heal each `list_changed` to the client takes `lateByMs` more and
 * leaves FIFO order, so the replies sent after it are not held back (a late hint overtaken by the
 * pages it concerns). Only `list_changed` is late: F3 is about the hint, and a modern-era server's
 * other notification, the `subscriptions/listen` acknowledgement (2026-07-28: sent first, before
 * any notification of the stream), is not one (seed 12 round 509 of `modern`: an acknowledgement
 * held 479 ms kept the restarted host's connection from opening and starved I19 past its
 * deadline).
 */
function lateLinkRule(server: ServerPlan, env: RuleEnv): LinkRule[] {
  const lateByMs = server.notifications.lateByMs;
  if (lateByMs === 0) return [];
  return [
    {
      onLinkMessage: (message, verdict) => {
        if (
          verdict.kind === 'drop' ||
          message.direction !== 'toClient' ||
          !message.notification ||
          !isListChanged(message.message) ||
          env.now() >= env.tHealMs
        )
          return verdict;
        return { kind: 'deliver', latencyMs: verdict.latencyMs + lateByMs, reorder: true };
      },
    },
  ];
}

/** The method of the notification F3 makes late. */
const LIST_CHANGED_METHOD = 'notifications/tools/list_changed';

/** Whether `message` is a `notifications/tools/list_changed`. */
function isListChanged(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === LIST_CHANGED_METHOD;
}

/** F3: list_changed misbehaviour. */
export const F3: FaultDefinition<'F3', typeof RATES> = {
  id: 'F3',
  rates: RATES,
  plan: {
    server: {
      notifications: {
        schema: object({
          declared: boolean,
          sendOnChange: boolean,
          afterPage2: boolean,
          lateByMs: ms,
          copies: positive,
        }),
        healthy: HEALTHY_NOTIFICATIONS,
      },
    },
  },
  title:
    '`list_changed` after page 2; late (after the scan ended); duplicated; bursts; never sent although `listChanged` is declared; sent without declaring it',
  lifetime: 'episode',
  probes: ['list-changed-mid-walk'],
  presentIn: (plan: RoundPlan) => plan.servers.some((server) => notificationsFaulty(server.notifications)),
  generate: {
    shape(draft, rng, rates) {
      draft.server.notifications = {
        declared: !rng.chance(rates.undeclaredFraction),
        sendOnChange: !rng.chance(rates.silentFraction),
        afterPage2: rng.chance(rates.afterPage2Fraction),
        lateByMs: rng.chance(rates.lateFraction) ? drawIn(rng, rates.lateByMs) : 0,
        copies: drawIn(rng, rates.copies),
      };
    },
  },
  fragment: (plan) => perServer(plan, (server) => server.notifications),
  serverRules: rules,
  linkRules: lateLinkRule,
  serverReductions: (server) =>
    notificationsFaulty(server.notifications)
      ? [{ name: 'healthy notifications', server: { ...server, notifications: { ...HEALTHY_NOTIFICATIONS } } }]
      : [],
};
