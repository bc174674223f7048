/**
 * `catsim merge`: shard reports (`run --shard i/n --report FILE.json`, run anywhere, in any
 * order) folded into the one report the whole campaign would have produced. Everything but the
 * real-time figures equals that report, campaign digest and revocation percentiles included:
 * shards carry their per-round trace digests and every revocation delay (`shardData`). The
 * coverage-probe gate is judged here, over all shards, never by one shard.
 */
import { Ajv } from 'ajv';
import { ReportBuilder, shardBlock, type CampaignReport, type ShardData, type ShardOfCampaign } from './report.ts';

/** Shard reports that cannot be merged; the message names the file and the problem (exit 2). */
export class MergeError extends Error {
  override readonly name = 'MergeError';
}

/** One shard report as read, with the path it came from (for messages). */
export interface ShardInput {
  path: string;
  report: unknown;
}

/** What merge reads of a report; everything else it carries is ignored. */
const SHARD_REPORT_SCHEMA = {
  type: 'object',
  required: ['seed', 'scenario', 'scenarioPath', 'scenarioDigest', 'catalog', 'core', 'firstRound', 'roundsPlanned', 'roundsRun', 'interrupted', 'shard', 'shardData', 'violationsByInvariant', 'undecidedRounds', 'endStates', 'endReasons', 'faultsEnabled', 'failingRounds', 'probes', 'decisions', 'receipts', 'unknownDialectAdmissions', 'probeCalls', 'determinism', 'elapsedMs'],
  properties: {
    seed: { type: 'string' },
    scenario: { type: 'string' },
    scenarioPath: { type: ['string', 'null'] },
    scenarioDigest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    core: { type: 'string' },
    firstRound: { type: 'integer', minimum: 0 },
    roundsPlanned: { type: 'integer', minimum: 0 },
    roundsRun: { type: 'integer', minimum: 0 },
    interrupted: { type: 'boolean' },
    shard: {
      type: 'object',
      required: ['index', 'count', 'firstRound', 'rounds'],
      properties: { index: { type: 'integer', minimum: 1 }, count: { type: 'integer', minimum: 1 }, firstRound: { type: 'integer', minimum: 0 }, rounds: { type: 'integer', minimum: 1 } },
    },
    shardData: {
      type: 'object',
      required: ['roundDigests', 'revocationDelaysMs', 'revocationsCensored', 'probeGate'],
      properties: {
        roundDigests: { type: 'array', items: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
        revocationDelaysMs: { type: 'array', items: { type: 'number' } },
        revocationsCensored: { type: 'integer', minimum: 0 },
        probeGate: { type: 'object', properties: { rounds: { type: 'integer' }, required: { type: 'array', items: { type: 'string' } } } },
      },
    },
    violationsByInvariant: { $ref: '#/$defs/counts' },
    undecidedRounds: { $ref: '#/$defs/count' },
    endStates: { $ref: '#/$defs/counts' },
    endReasons: { $ref: '#/$defs/counts' },
    faultsEnabled: { $ref: '#/$defs/counts' },
    probes: { $ref: '#/$defs/counts' },
    decisions: { $ref: '#/$defs/counts' },
    unknownDialectAdmissions: { $ref: '#/$defs/count' },
    failingRounds: { type: 'array', items: { type: 'object', required: ['round', 'undecided', 'violations'] } },
    determinism: { type: 'object', required: ['replayed', 'mismatches'], properties: { replayed: { $ref: '#/$defs/count' }, mismatches: { type: 'array' } } },
    receipts: { type: 'object', required: ['executed', 'covered'], properties: { executed: { $ref: '#/$defs/count' }, covered: { $ref: '#/$defs/count' } } },
    probeCalls: { type: 'object', required: ['expected', 'admitted'], properties: { expected: { $ref: '#/$defs/count' }, admitted: { $ref: '#/$defs/count' } } },
    elapsedMs: { type: 'number' },
  },
  $defs: {
    /** A count: what a run writes, never negative or fractional. */
    count: { type: 'integer', minimum: 0 },
    /** Counts by name (invariant, state, reason, fault, probe or decision). */
    counts: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
  },
} as const;

const validateShardReport = new Ajv({ allErrors: false }).compile<CampaignReport & { shard: ShardOfCampaign; shardData: ShardData }>(SHARD_REPORT_SCHEMA);

/** The fields every shard of one campaign must agree on. */
const SAME = ['seed', 'scenario', 'scenarioDigest', 'core'] as const;

/**
 * Merges the shard reports of one campaign.
 * @throws MergeError when a file is not a shard report, the shards are of different campaigns,
 * a shard is missing, given twice or interrupted, or its block is not the one its index names.
 */
export function mergeShardReports(inputs: readonly ShardInput[]): CampaignReport {
  if (inputs.length === 0) throw new MergeError('no shard reports given');
  const shards = inputs.map(readShard);
  const first = shards[0] as Shard;
  const byIndex = new Map<number, string>();
  for (const shard of shards) {
    checkSameCampaign(shard, first);
    const twin = byIndex.get(shard.report.shard.index);
    if (twin !== undefined) throw new MergeError(`${shard.path}: shard ${shard.report.shard.index}/${shard.report.shard.count} is given twice (also ${twin})`);
    byIndex.set(shard.report.shard.index, shard.path);
    checkComplete(shard);
  }
  const { count, firstRound, rounds } = first.report.shard;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) throw new MergeError(`missing shard${missing.length === 1 ? '' : 's'} ${missing.map((index) => `${index}/${count} (rounds ${blockText(first.report.shard, index)})`).join(', ')}`);
  const builder = new ReportBuilder(
    { seed: first.report.seed, scenario: first.report.scenario, scenarioPath: first.report.scenarioPath, scenarioDigest: first.report.scenarioDigest, catalog: first.report.catalog, core: first.report.core, firstRound, roundsPlanned: rounds, faults: Object.keys(first.report.faultsEnabled) },
    first.report.shardData.probeGate,
  );
  for (const { report } of [...shards].sort((a, b) => a.report.shard.index - b.report.shard.index)) builder.addShard(report);
  return builder.build(shards.reduce((sum, { report }) => sum + report.elapsedMs, 0), false);
}

/** A shard report that passed the schema, with its file. */
interface Shard {
  path: string;
  report: CampaignReport & { shard: ShardOfCampaign; shardData: ShardData };
}

function readShard({ path, report }: ShardInput): Shard {
  if (typeof report === 'object' && report !== null && (report as { shard?: unknown }).shard === null) {
    throw new MergeError(`${path}: the report of a whole campaign, not of a shard (catsim run --shard i/n --report FILE writes those)`);
  }
  if (!validateShardReport(report)) {
    const error = validateShardReport.errors?.[0];
    const where = error === undefined ? '' : `${error.instancePath || '(top level)'} ${error.message}`;
    throw new MergeError(`${path}: not a shard report of catsim run --shard i/n --report (${where})`);
  }
  return { path, report };
}

/** The same seed, scenario, catalog and core, and the same split of the same rounds as `first`. */
function checkSameCampaign({ path, report }: Shard, first: Shard): void {
  for (const field of SAME) {
    if (report[field] !== first.report[field]) throw new MergeError(`${path}: ${field} is ${JSON.stringify(report[field])}, but ${first.path} has ${JSON.stringify(first.report[field])}: not shards of one campaign`);
  }
  if (JSON.stringify(report.catalog) !== JSON.stringify(first.report.catalog)) throw new MergeError(`${path}: its catalog differs from ${first.path}'s: not shards of one campaign`);
  const { shard } = report;
  const campaign = first.report.shard;
  if (shard.count !== campaign.count || shard.firstRound !== campaign.firstRound || shard.rounds !== campaign.rounds) {
    throw new MergeError(`${path}: shard of rounds ${shard.firstRound}..${shard.firstRound + shard.rounds - 1} in ${shard.count}, but ${first.path} is of rounds ${campaign.firstRound}..${campaign.firstRound + campaign.rounds - 1} in ${campaign.count}: not shards of one campaign`);
  }
  if (shard.index > shard.count) throw new MergeError(`${path}: shard ${shard.index}/${shard.count} does not exist`);
}

/** The shard ran exactly its block, to the end. */
function checkComplete({ path, report }: Shard): void {
  const { shard } = report;
  const block = shardBlock(shard.firstRound, shard.rounds, shard.index, shard.count);
  if (report.firstRound !== block.firstRound || report.roundsPlanned !== block.rounds) {
    throw new MergeError(`${path}: shard ${shard.index}/${shard.count} should cover rounds ${blockText(shard, shard.index)}, it says ${report.firstRound}..${report.firstRound + report.roundsPlanned - 1}`);
  }
  if (report.interrupted || report.roundsRun !== block.rounds || report.shardData.roundDigests.length !== block.rounds) {
    throw new MergeError(`${path}: shard ${shard.index}/${shard.count} was interrupted after ${report.roundsRun} of ${block.rounds} rounds; run it again to the end`);
  }
}

/** `first..last` of shard `index` of the campaign. */
function blockText(campaign: ShardOfCampaign, index: number): string {
  const block = shardBlock(campaign.firstRound, campaign.rounds, index, campaign.count);
  return `${block.firstRound}..${block.firstRound + block.rounds - 1}`;
}
