/**
 * Records one round's trace (docs/TRACE.md): world events (ground truth) and core events
 * (observations) interleaved in the order they happened, each stamped with `seq` and virtual `t`.
 * Events are stored as plain objects whose key order is the written order, so serialising them
 * gives the same bytes on every machine.
 */
import { createHash } from 'node:crypto';
import type { Bounds, FaultId } from '../plan/types.ts';
import { plainClone } from '../internal/plain-clone.ts';

/** The first line of a trace. */
export interface TraceHeader {
  type: 'header';
  schema: 'catsim.trace.v1';
  seed: string;
  round: number;
  scenario: string;
  core: string;
  bounds: Bounds;
  faults: FaultId[];
}

/** One event line: `seq`, `t`, `src`, `type`, then the event's fields. */
export interface TraceEvent {
  seq: number;
  t: number;
  src: 'world' | 'core';
  type: string;
  [field: string]: unknown;
}

/** Collects the events of one round. */
export class TraceRecorder {
  readonly events: TraceEvent[] = [];

  constructor(private readonly now: () => number) {}

  /** Records a ground-truth event. */
  world(type: string, fields: Record<string, unknown> = {}): void {
    this.events.push({ seq: this.events.length, t: this.now(), src: 'world', type, ...fields });
  }

  /** The sink the core writes its observations to. */
  readonly core = {
    emit: (observation: { readonly type: string }): void => {
      this.events.push({ seq: this.events.length, t: this.now(), src: 'core', ...plainClone(observation) });
    },
  };
}

/** The trace as JSON lines (header first), newline-terminated. */
export function traceText(header: TraceHeader, events: readonly TraceEvent[]): string {
  const lines = [JSON.stringify(header)];
  for (const event of events) lines.push(JSON.stringify(event));
  return `${lines.join('\n')}\n`;
}

/** sha256 of the trace text: equal digests mean byte-identical traces. */
export function traceDigest(header: TraceHeader, events: readonly TraceEvent[]): string {
  return createHash('sha256').update(traceText(header, events), 'utf8').digest('hex');
}
