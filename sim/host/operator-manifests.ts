/**
 * The operator's manifest files a round hands the core (`env.manifestFiles`, SPEC section 9): one
 * `catsim.manifests.v1` file per server the plan says the operator described (`operatorManifest`,
 * F32), under each identity the server presents (its first, then its F7 rotations'), naming the
 * server by its plan id (the operator's stable name, which an identity rotation does not change).
 * The file lists no tool, so every tool gets the safest defaults and the tool id
 * `<server id>.<tool name>`. Built from the plan alone.
 */
import type { RoundPlan } from '../plan/types.ts';

/** One described server, as the world's `operator_manifest` event writes it. */
export interface DescribedServer {
  server: string;
  identities: string[];
  toolIdPrefix: string;
}

/** The manifest files of a round: the text by server identity, and the servers they describe. */
export interface OperatorManifests {
  files: Record<string, string>;
  servers: DescribedServer[];
}

/** The manifest files of `plan`, or undefined when no server has one (nothing is handed to the core). */
export function operatorManifestsOf(plan: RoundPlan): OperatorManifests | undefined {
  const manifests: OperatorManifests = { files: {}, servers: [] };
  for (const server of plan.servers) {
    if (server.operatorManifest !== true) continue;
    const text = JSON.stringify({ schema: 'catsim.manifests.v1', server: server.id, tools: {} });
    const identities = [server.identity, ...server.rotations.map((rotation) => rotation.identity)];
    for (const identity of identities) manifests.files[identity] = text;
    manifests.servers.push({ server: server.id, identities, toolIdPrefix: `${server.id}.` });
  }
  return manifests.servers.length === 0 ? undefined : manifests;
}
