/**
 * How one event of `catsim.trace.v1` is declared: its source, its type, the part of docs/TRACE.md
 * it is documented in, what it means, its rules across fields, and its own fields in their written
 * order. Every event starts with `seq`, `t`, `src` and `type`, in that order.
 */
import { literal, nat, objectOf, type Field, type ObjectOf, type Shape } from './fields.ts';

/** Who writes an event: the world (ground truth) or the core (its observations). */
export type EventSource = 'world' | 'core';

/** Where docs/TRACE.md documents an event: discovery (SPEC sections 3-6), admission (section 7) or the tool surface (section 8). */
export type EventSection = 'discovery' | 'admission' | 'surface';

/**
 * A rule across the fields of one event, checked once every field has its documented kind:
 * `holds` says whether the event keeps it; otherwise `field` must be `expected`.
 */
export interface AcrossFieldRule {
  readonly field: string;
  readonly expected: string;
  readonly holds: (event: Readonly<Record<string, unknown>>) => boolean;
}

/** What docs/TRACE.md says of an event besides its fields, and its rules across fields. */
export interface EventDoc {
  readonly section: EventSection;
  /** One phrase: what the event means, e.g. `the server answered one tools/list request`. */
  readonly meaning: string;
  /** For a core event: the invariants that judge it (docs only; see oracle/invariants/). */
  readonly judgedBy?: string;
  readonly rules?: readonly AcrossFieldRule[];
}

/** The fields every event starts with. */
type CommonShape<Src extends EventSource, T extends string> = {
  readonly seq: Field<number>;
  readonly t: Field<number>;
  readonly src: Field<Src>;
  readonly type: Field<T>;
};

/** The declaration of one event type: its object kind, its source, type, doc and own fields. */
export interface EventKind<Src extends EventSource = EventSource, T extends string = string, S extends Shape = Shape>
  extends Field<ObjectOf<CommonShape<Src, T> & S>> {
  readonly src: Src;
  readonly name: T;
  readonly doc: EventDoc;
  /** The event's own fields (after `seq`, `t`, `src`, `type`), in their written order. */
  readonly fields: S;
}

/** Declares one event type; `fields` lists its own fields in the order they are written. */
export function eventOf<Src extends EventSource, T extends string, const S extends Shape>(
  src: Src,
  type: T,
  doc: EventDoc,
  fields: S,
): EventKind<Src, T, S> {
  const common: CommonShape<Src, T> = { seq: nat, t: nat, src: literal(src), type: literal(type) };
  const object = objectOf({ ...common, ...fields });
  return { ...object, src, name: type, doc, fields } as unknown as EventKind<Src, T, S>;
}
