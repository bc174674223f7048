/**
 * The typed result of a failed surface check: which check, which field, which tool.
 *
 * Both checks classify the first difference between the request's tools and the baseline by the
 * same rules, in this order (the first that applies wins):
 * 1. `count`: `tools` is not an array (`actual` null), or it holds another number of tools and
 *    every name in it is admitted. `tool` names the first baseline tool missing from the request,
 *    else the first name it holds twice, else null; `index` is null.
 * 2. `unadmitted`: it holds another number of tools and one of them has a name the baseline does
 *    not (a tool was added). `tool` and `actual` name the first such tool, `index` its position.
 * 3. `name`: as many tools, but not the same names (a tool renamed or replaced). `index` is the
 *    first position whose name differs, `tool` the baseline's name there, `actual` the request's.
 * 4. `order`: the same names in another order; `index`, `tool`, `actual` as for `name`.
 * 5. `description`, then `inputSchema`, for the first position (in order) where either differs;
 *    `inputSchema` also gives `schemaPath`, the JSON Pointer of the first difference.
 * Descriptions compare as strings (`===`), schemas as JSON values (member order is free, an
 * `undefined` member is absent). A value that cannot be read (a throwing getter) differs.
 */

/** Which of the two checks ran (seed 003: early after hooks, final right before dispatch). */
export type SurfaceCheck = 'early' | 'final';

/** The field a mismatch is about. */
export type SurfaceField = 'count' | 'order' | 'name' | 'description' | 'inputSchema' | 'unadmitted';

/** One mismatch between a request's tools and the baseline (see the file header for the rules). */
export interface SurfaceMismatch {
  check: SurfaceCheck;
  field: SurfaceField;
  /** The tool the mismatch is about (see the rules), or null. */
  tool: string | null;
  /** The position in the request's tools, or null for `count`. */
  index: number | null;
  /**
   * The baseline's value: a count for `count`, a name for `name`/`order`, the description for
   * `description`, the value at `schemaPath` for `inputSchema`; null for `unadmitted`, and
   * wherever the value is not a string or a number.
   */
  expected: string | number | null;
  /** The request's value, in the same terms (the added name for `unadmitted`). */
  actual: string | number | null;
  /** `inputSchema` only: the RFC 6901 JSON Pointer inside the schema (`''` for the whole schema); else null. */
  schemaPath: string | null;
}
