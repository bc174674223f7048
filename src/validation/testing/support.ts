/**
 * Shared helpers of the validation tests: the reference-server fixture and a `checkTools` call
 * with real descriptor digests. Not part of the library.
 */
import { readFileSync } from 'node:fs';
import { descriptorDigest } from '../../snapshot/digests.ts';
import { checkTools, type ToolVerdict } from '../content-checks.ts';
import { DEFAULT_TRUST, type TrustConfig } from '../trust.ts';
import { ValidationMemos } from '../validation-memos.ts';

/** The `tools/list` results of the three reference servers, verbatim (fixtures/reference-servers.json). */
export const REFERENCE_TOOLS = JSON.parse(
  readFileSync(new URL('../fixtures/reference-servers.json', import.meta.url), 'utf8'),
) as {
  everything: Record<string, unknown>[];
  filesystem: Record<string, unknown>[];
  memory: Record<string, unknown>[];
};

/** `checkTools` with each tool's real descriptor digest (SPEC section 4), with fresh memos unless `memos` is given. */
export function verdicts(
  tools: readonly unknown[],
  trust: TrustConfig = DEFAULT_TRUST,
  memos = new ValidationMemos(1_000, 100),
): ToolVerdict[] {
  return checkTools(
    tools,
    tools.map((tool) => descriptorDigest(tool)),
    trust,
    memos,
  );
}

/** A tool named `name` with the given input schema and extra fields. */
export function tool(name: string, inputSchema: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, inputSchema, ...extra };
}

/** An object schema whose `not` chain makes it exactly `depth` objects deep (depth >= 1). */
export function schemaOfDepth(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = {};
  for (let level = 1; level < depth; level += 1) schema = { not: schema };
  return { type: 'object', ...schema };
}
