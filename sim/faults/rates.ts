/**
 * Fault rates: how often a fault acts, as named, documented fields of the scenario schema (a
 * scenario's `faultRates.<fault id>.<rate>`), each with its default in the fault's file. A rate is
 * a fraction (a probability in [0, 1]), a list of fractions one of which is drawn, a range of
 * counts or of times (ms), or a list of kinds one of which is drawn; never a bare number in the
 * generator.
 *
 * Order of use: a fault file declares its `RateSpecs`; `rateSchema` turns them into its part of
 * the scenario schema (sim/plan/scenario-schema.ts); `ratesOf` gives the generator the values in
 * force for a scenario: each field the scenario sets, else its default.
 */
import type { Range } from '../plan/scenario-types.ts';

/** A probability in [0, 1]. */
export interface FractionRate {
  readonly kind: 'fraction';
  readonly default: number;
  readonly description: string;
}

/** Fractions one of which is drawn, uniformly (repeat one to weight it). */
export interface FractionsRate {
  readonly kind: 'fractions';
  readonly default: readonly number[];
  readonly description: string;
}

/** An inclusive range of counts (at most COUNT_MAX), optionally at least 1. */
export interface CountsRate {
  readonly kind: 'counts';
  readonly default: Range;
  /** The smallest count allowed: 0 or 1. */
  readonly minimum: 0 | 1;
  readonly description: string;
}

/** An inclusive range of virtual times, ms. */
export interface MsRangeRate {
  readonly kind: 'msRange';
  readonly default: Range;
  readonly description: string;
}

/** Kinds one of which is drawn, uniformly, from those listed (each at most once). */
export interface ChoicesRate<T extends string = string> {
  readonly kind: 'choices';
  readonly values: readonly T[];
  readonly default: readonly T[];
  readonly description: string;
}

/** Any rate. */
export type RateSpec = FractionRate | FractionsRate | CountsRate | MsRangeRate | ChoicesRate;

/** The rates of one fault, by field name. */
export type RateSpecs = Readonly<Record<string, RateSpec>>;

/** The value type of one rate. */
export type RateValue<S extends RateSpec> = S extends FractionRate
  ? number
  : S extends FractionsRate
    ? readonly number[]
    : S extends CountsRate | MsRangeRate
      ? Range
      : S extends ChoicesRate<infer T>
        ? readonly T[]
        : never;

/** The values of a fault's rates. */
export type RatesOf<S extends RateSpecs> = { readonly [K in keyof S]: RateValue<S[K]> };

/** The largest count a count range may ask for (a plan generator draws that many events). */
export const COUNT_MAX = 1000;

/** A fraction rate. */
export function fraction(defaultValue: number, description: string): FractionRate {
  return { kind: 'fraction', default: defaultValue, description };
}

/** A rate drawn from a list of fractions. */
export function fractions(defaultValues: readonly number[], description: string): FractionsRate {
  return { kind: 'fractions', default: defaultValues, description };
}

/** A range of counts, at least `minimum`. */
export function counts(min: number, max: number, description: string, minimum: 0 | 1 = 0): CountsRate {
  return { kind: 'counts', default: { min, max }, minimum, description };
}

/** A range of times, ms. */
export function msRange(min: number, max: number, description: string): MsRangeRate {
  return { kind: 'msRange', default: { min, max }, description };
}

/** A rate drawn from a list of kinds; by default every kind. */
export function choices<const T extends string>(values: readonly T[], description: string): ChoicesRate<T> {
  return { kind: 'choices', values, default: values, description };
}

/** The values in force: each rate the scenario's `faultRates[id]` sets, else its default. */
export function ratesOf<S extends RateSpecs>(
  specs: S,
  configured: Readonly<Record<string, unknown>> | undefined,
): RatesOf<S> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) values[name] = configured?.[name] ?? spec.default;
  return values as RatesOf<S>;
}

/** The JSON Schema of one rate, with its default and description (see scenario-schema.ts for the $defs). */
export function rateSchema(spec: RateSpec): Record<string, unknown> {
  const annotations = { description: spec.description, default: spec.default };
  switch (spec.kind) {
    case 'fraction':
      return { $ref: '#/$defs/fraction', ...annotations };
    case 'fractions':
      return {
        type: 'array',
        title: 'a non-empty array of numbers in [0, 1]',
        minItems: 1,
        items: { $ref: '#/$defs/fraction' },
        ...annotations,
      };
    case 'counts':
      return { $ref: spec.minimum === 1 ? '#/$defs/positiveCountRange' : '#/$defs/countRange', ...annotations };
    case 'msRange':
      return { $ref: '#/$defs/range', ...annotations };
    case 'choices': {
      const title = `one of ${spec.values.map((value) => JSON.stringify(value)).join(', ')}`;
      return {
        type: 'array',
        title: `a non-empty array of ${title}`,
        minItems: 1,
        uniqueItems: true,
        items: { title, enum: spec.values },
        ...annotations,
      };
    }
  }
}
