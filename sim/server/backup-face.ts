/**
 * The contract F37's backup endpoint serves (sim/faults/f37-backup-endpoint.ts): every tool as the
 * primary lists it, except the backed-up tool under the `other` contract, which gets one more
 * required input (`backupMode`, a string): another descriptor digest, and a breaking change by
 * SPEC section 9's rules, so no run that pinned the primary's contract may execute on it.
 */
import type { ServerPlan, ToolDescriptor } from '../plan/types.ts';

/** The identity a server's backup endpoint presents: the plan's identity with `~backup`. */
export function backupIdentityOf(plan: ServerPlan): string {
  return `${plan.identity}~backup`;
}

/** The build (`serverInfo.version`) of every backup endpoint; the primary's is `1.0.0`. */
export const BACKUP_BUILD = '1.0.1-backup';

/** `tool` as the backup of `plan` lists and executes it. */
export function backupDescriptor(plan: ServerPlan, tool: ToolDescriptor): ToolDescriptor {
  const backup = plan.backupEndpoint;
  if (backup === undefined || backup.contract === 'same' || tool.name !== backup.tool) return tool;
  const schema = (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>;
  const properties = { ...((schema.properties ?? {}) as Record<string, unknown>), backupMode: { type: 'string' } };
  const required = [...((schema.required ?? []) as string[]).filter((name) => name !== 'backupMode'), 'backupMode'];
  return { ...tool, inputSchema: { ...schema, properties, required } };
}
