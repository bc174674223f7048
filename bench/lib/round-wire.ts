/**
 * The JSON-RPC messages of real simulated rounds, recorded and replayed over bare SDK pairs: the
 * floor a round's messages cost on the SDK alone (bench/round-floor.bench.ts).
 *
 * Recording runs the round (`runRound`, reference core) with a wire tap on every link it opens
 * and keeps each delivered message, in delivery order, per link. Replaying opens, for each
 * recorded link, one SDK `Server` and one SDK `Client` over the SDK's `InMemoryTransport`
 * (`connect` is the initialize handshake, as each simulated session does), then walks the
 * recorded sequence: each client request is sent with the same schema the core uses and the
 * server's handler answers it with the recorded result (or throws the recorded JSON-RPC error);
 * each server notification and each client notification is sent at its recorded place. Requests
 * whose response was never delivered (cut by a disconnect) are not replayed, and counted.
 * Nothing here is timed; the benchmark times `replayRound`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { LenientCallToolResultSchema } from '../../src/admission/dispatch.ts';
import { LenientListToolsResultSchema } from '../../src/discovery/page-source.ts';
import { referenceCore } from '../../cores/reference.ts';
import { generatePlan } from '../../sim/plan/generate.ts';
import type { Scenario } from '../../sim/plan/scenario.ts';
import { runRound } from '../../sim/round.ts';
import type { LinkDirection } from '../../sim/transport/link-rules.ts';

/** One delivered message of a link, in delivery order. */
interface WireMessage {
  direction: LinkDirection;
  message: JSONRPCMessage;
}

/** What one replayed request is answered with: a result object or a JSON-RPC error. */
type RecordedAnswer =
  | { result: Record<string, unknown> }
  | { error: { code: number; message: string; data?: unknown } };

/** One step of a link's replay, in recorded order. */
type ReplayStep =
  | { kind: 'request'; request: JSONRPCRequest; answer: RecordedAnswer }
  | { kind: 'client-notification'; notification: JSONRPCNotification }
  | { kind: 'server-notification'; notification: JSONRPCNotification };

/** One recorded session (link): its replay steps and its message counts by kind. */
export interface LinkWire {
  steps: ReplayStep[];
}

/** One recorded round. */
export interface RoundWire {
  round: number;
  links: LinkWire[];
  /** Delivered messages by kind: a request or notification's method, or `response`/`error response`. */
  kinds: Map<string, number>;
  /** Requests delivered whose response was not (cut by a disconnect): left out of the replay. */
  unanswered: number;
}

/** Runs round `round` of campaign `seed` on the reference core with a tap on every link; returns its messages. */
export async function recordRound(seed: string, round: number, scenario: Scenario): Promise<RoundWire> {
  const tapped: WireMessage[][] = [];
  await runRound(generatePlan(seed, round, scenario), referenceCore(), 'reference', {
    linkOpened(link) {
      const messages: WireMessage[] = [];
      tapped.push(messages);
      link.onDeliver = (direction, message) => messages.push({ direction, message: structuredClone(message) });
    },
  });
  const kinds = new Map<string, number>();
  let unanswered = 0;
  const links = tapped.map((messages) => {
    for (const { message } of messages) increment(kinds, kindOf(message));
    const built = stepsOf(messages);
    unanswered += built.unanswered;
    return { steps: built.steps };
  });
  return { round, links, kinds, unanswered };
}

/** Replays every link of `wire` over its own bare SDK pair, one link after another. */
export async function replayRound(wire: RoundWire): Promise<void> {
  for (const link of wire.links) await replayLink(link);
}

/** The kind a message is counted under. */
function kindOf(message: JSONRPCMessage): string {
  if ('method' in message) return message.method;
  return 'error' in message ? 'error response' : 'response';
}

/** Pairs each delivered request with its delivered response (by id) and orders the replay. */
function stepsOf(messages: readonly WireMessage[]): { steps: ReplayStep[]; unanswered: number } {
  const answers = new Map<string | number, RecordedAnswer>();
  for (const { direction, message } of messages) {
    if (direction !== 'toClient' || 'method' in message) continue;
    if ('error' in message) answers.set(message.id as string | number, { error: message.error });
    else if ('result' in message)
      answers.set(message.id as string | number, { result: message.result as Record<string, unknown> });
  }
  const steps: ReplayStep[] = [];
  let unanswered = 0;
  for (const { direction, message } of messages) {
    if (!('method' in message)) continue;
    const isRequest = 'id' in message && message.id !== undefined;
    // The handshake is what `connect` does on the replay pair.
    if (message.method === 'initialize' || message.method === 'notifications/initialized') continue;
    if (!isRequest) {
      steps.push({
        kind: direction === 'toServer' ? 'client-notification' : 'server-notification',
        notification: message as JSONRPCNotification,
      });
      continue;
    }
    const answer = answers.get(message.id as string | number);
    if (direction !== 'toServer')
      throw new Error(`round-wire: a server-to-client request (${message.method}) is not replayable`);
    if (answer === undefined) unanswered++;
    else steps.push({ kind: 'request', request: message as JSONRPCRequest, answer });
  }
  return { steps, unanswered };
}

/** One bare pair: Server and Client connected over InMemoryTransport, the steps replayed, both closed. */
async function replayLink(link: LinkWire): Promise<void> {
  // Only tools/* requests reach these handlers (the SDK answers ping itself), in the order sent.
  const answers = link.steps.flatMap((step) =>
    step.kind === 'request' && step.request.method.startsWith('tools/') ? [step.answer] : [],
  );
  let next = 0;
  const answer = (): Record<string, unknown> => {
    const recorded = answers[next++];
    if (recorded === undefined) throw new Error('round-wire: more requests than recorded answers');
    if ('error' in recorded) throw new McpError(recorded.error.code, recorded.error.message, recorded.error.data);
    return recorded.result;
  };
  const server = new Server({ name: 'floor', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, () => answer() as never);
  server.setRequestHandler(CallToolRequestSchema, () => answer() as never);
  const client = new Client({ name: 'floor', version: '1.0.0' }, { capabilities: {} });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  for (const step of link.steps) await replayStep(client, server, step);
  await client.close();
  await server.close();
}

async function replayStep(client: Client, server: Server, step: ReplayStep): Promise<void> {
  if (step.kind === 'server-notification') return server.notification(step.notification as never);
  if (step.kind === 'client-notification') return client.notification(step.notification as never);
  const { method, params } = step.request;
  const schema = method === 'tools/call' ? LenientCallToolResultSchema : LenientListToolsResultSchema;
  // An answer the simulated server gave as a JSON-RPC error rejects here too, as it did in the round.
  await client.request({ method, params } as never, schema).catch(() => undefined);
}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
