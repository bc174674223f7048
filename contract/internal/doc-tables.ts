/**
 * The Markdown tables of docs/TRACE.md, rendered from the field tables of the contract: the header
 * and its bounds, the events by source and section, the objects nested inside events, and the
 * code tables. Each block has a name; doc.ts puts each between its markers in the document.
 */
import {
  CAPABILITY_REFUSALS,
  GATE_REFUSALS,
  INCOMPLETE_REASONS,
  QUARANTINE_REASONS,
  TOOL_QUARANTINE_REASONS,
} from '../trace/codes.ts';
import { TRACE_EVENTS } from '../trace/events.ts';
import { TRACE_HEADER } from '../trace/header.ts';
import type { EventKind, EventSection, EventSource } from './event.ts';
import type { Field, Shape } from './fields.ts';

const EVENTS = Object.values(TRACE_EVENTS) as readonly EventKind[];

/** `` `name` (type: description) ``, marking a field older traces may lack. */
function fieldText(name: string, field: Field<unknown>): string {
  const type = `${field.optional === true ? 'optional, ' : ''}${field.type}`;
  return `\`${name}\` (${field.description === undefined ? type : `${type}: ${field.description}`})`;
}

/** A shape's fields on one line, or `(none)`. */
function fieldsText(shape: Shape): string {
  const names = Object.keys(shape);
  return names.length === 0 ? '(none)' : names.map((name) => fieldText(name, shape[name] as Field<unknown>)).join(', ');
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');
}

/** The table of one source's events in one section. */
function eventTable(src: EventSource, section: EventSection): string {
  const kinds = EVENTS.filter((kind) => kind.src === src && kind.doc.section === section);
  if (src === 'world')
    return table(
      ['type', 'fields', 'meaning'],
      kinds.map((kind) => [`\`${kind.name}\``, fieldsText(kind.fields), kind.doc.meaning]),
    );
  return table(
    ['type', 'fields', 'meaning', 'judged by'],
    kinds.map((kind) => [`\`${kind.name}\``, fieldsText(kind.fields), kind.doc.meaning, kind.doc.judgedBy ?? '']),
  );
}

/** The fields of an object shape, one per row: name, type, meaning. */
function shapeTable(shape: Shape): string {
  return table(
    ['field', 'type', 'meaning'],
    Object.entries(shape).map(([name, field]) => [
      `\`${name}\``,
      `${field.optional === true ? 'optional, ' : ''}${field.type}`,
      field.description ?? '',
    ]),
  );
}

/** The object shape under a field (through nullable, array and record kinds) and the path to it. */
function nestedShape(field: Field<unknown>, path: string): { shape: Shape; path: string } | null {
  if (field.shape !== undefined) return { shape: field.shape, path };
  if (field.inner === undefined) return null;
  const step = field.container === 'array' ? '[]' : field.container === 'record' ? `[${field.keyName ?? 'key'}]` : '';
  return nestedShape(field.inner, `${path}${step}`);
}

/** Every object nested in an event's fields, as `event` `path` → its fields. */
function objectsTable(): string {
  const rows: string[][] = [];
  for (const kind of EVENTS) {
    for (const [name, field] of Object.entries(kind.fields)) {
      const nested = nestedShape(field, name);
      if (nested !== null) rows.push([`\`${kind.name}\``, `\`${nested.path}\``, fieldsText(nested.shape)]);
    }
  }
  return table(['event', 'field', 'its fields'], rows);
}

const code = (value: string): string => `\`${value}\``;

/** The code tables that the field tables refer to. */
function codesTable(): string {
  return table(
    ['codes', 'values'],
    [
      ['`scan_ended.reason` of an INCOMPLETE scan', INCOMPLETE_REASONS.map(code).join(', ')],
      ['`scan_ended.reason` of a QUARANTINED scan', QUARANTINE_REASONS.map(code).join(', ')],
      [
        '`gate_decision.decision` other than `ADMIT`: refusal codes, in the order the gate checks them',
        GATE_REFUSALS.map(code).join(', '),
      ],
      [
        '`gate_decision.decision` from a capability registry (SPEC section 9): the pinned version may not execute',
        CAPABILITY_REFUSALS.map(code).join(', '),
      ],
      [
        '`published.tools[].verdict` other than `ok`: the content check that quarantined the tool',
        TOOL_QUARANTINE_REASONS.map(code).join(', '),
      ],
    ],
  );
}

/** Every generated block of docs/TRACE.md, by name, in document order. */
export function docBlocks(): ReadonlyMap<string, string> {
  return new Map([
    ['header', shapeTable(TRACE_HEADER.shape)],
    ['bounds', shapeTable(TRACE_HEADER.shape.bounds.shape ?? {})],
    ['world discovery events', eventTable('world', 'discovery')],
    ['core discovery events', eventTable('core', 'discovery')],
    ['world admission events', eventTable('world', 'admission')],
    ['core admission events', eventTable('core', 'admission')],
    ['world surface events', eventTable('world', 'surface')],
    ['objects inside events', objectsTable()],
    ['codes', codesTable()],
  ]);
}
