/**
 * Per-tool content checks (SPEC section 5). A failing tool is quarantined inside the snapshot
 * with a reason; the rest of the snapshot stays usable.
 */
import type { TrustConfig } from './trust.ts';

/** Why a tool was quarantined inside a snapshot. */
export type ToolQuarantineReason =
  | 'MALFORMED_DESCRIPTOR'
  | 'BAD_NAME'
  | 'DUPLICATE_NAME'
  | 'NON_OBJECT_ROOT'
  | 'UNKNOWN_DIALECT'
  | 'UNRESOLVED_REF'
  | 'REMOTE_REF'
  | 'OVERSIZED_DESCRIPTOR'
  | 'SCHEMA_TOO_DEEP';

/** `ok`, or the first reason the tool failed. */
export type ToolVerdict = 'ok' | ToolQuarantineReason;

/** The protocol's tool-name rule (2025-11-25 tools.mdx; SDK toolNameValidation). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** The normalisation hosts apply before comparing names: case folded, `-` equal to `_`. */
export function normaliseToolName(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

/** The name of a tool as sent, or '' when it has none. */
export function toolName(tool: unknown): string {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}

/**
 * Verdicts for every tool of one snapshot, in the same order.
 * `descriptorDigests[i]` is the digest of `tools[i]`, used to tell identical duplicates apart.
 */
export function checkTools(tools: readonly unknown[], descriptorDigests: readonly string[], trust: TrustConfig): ToolVerdict[] {
  const verdicts = tools.map((tool) => checkOne(tool, trust));
  markDuplicates(tools, descriptorDigests, verdicts);
  return verdicts;
}

function checkOne(tool: unknown, trust: TrustConfig): ToolVerdict {
  if (typeof tool !== 'object' || tool === null || Array.isArray(tool)) return 'MALFORMED_DESCRIPTOR';
  const record = tool as Record<string, unknown>;
  if (typeof record.name !== 'string') return 'MALFORMED_DESCRIPTOR';
  if (!TOOL_NAME_PATTERN.test(record.name)) return 'BAD_NAME';
  const input = record.inputSchema;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'NON_OBJECT_ROOT';
  if ((input as { type?: unknown }).type !== 'object') return 'NON_OBJECT_ROOT';
  return checkSchemas(record, trust);
}

/** Hook for the schema checks of SPEC section 5 (dialect, `$ref` closure, size and depth). */
function checkSchemas(tool: Record<string, unknown>, trust: TrustConfig): ToolVerdict {
  if (Buffer.byteLength(JSON.stringify(tool), 'utf8') > trust.descriptorBytesMax) return 'OVERSIZED_DESCRIPTOR';
  return 'ok';
}

/**
 * Names equal after normalisation: when the descriptors differ, every tool of the group is
 * quarantined; exact copies keep the first and quarantine the rest.
 */
function markDuplicates(tools: readonly unknown[], digests: readonly string[], verdicts: ToolVerdict[]): void {
  const groups = new Map<string, number[]>();
  tools.forEach((tool, index) => {
    const name = normaliseToolName(toolName(tool));
    groups.set(name, [...(groups.get(name) ?? []), index]);
  });
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const identical = members.every((index) => digests[index] === digests[members[0] as number]);
    for (const index of identical ? members.slice(1) : members) {
      if (verdicts[index] === 'ok') verdicts[index] = 'DUPLICATE_NAME';
    }
  }
}
