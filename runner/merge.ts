/**
 * `catsim merge`: reports of parts of one campaign, run anywhere and given in any order, folded
 * into the one report the whole campaign would have produced. A part is any report of `catsim
 * run`: a shard (`run --shard i/n --report FILE.json`), an interrupted run, the run that resumed
 * it (`--from R --rounds N`), or an earlier merge. Each report covers exactly the rounds
 * `firstRound .. firstRound + roundsRun - 1` (see report.ts), so merging is sound when the parts'
 * rounds tile one block without a gap or an overlap, and that block holds every round of the
 * campaign each part was run for (a shard's whole campaign, an interrupted run's planned rounds).
 *
 * Everything but the real-time figures equals the whole campaign's report, campaign digest and
 * revocation percentiles included: every report carries its per-round trace digests and every
 * revocation delay (`mergeData`). The coverage-probe gate is judged here, over all parts, never by
 * one shard.
 */
import { Ajv } from 'ajv';
import { CAPABILITIES, type Capability } from '../oracle/not-judged.ts';
import { ReportBuilder, type CampaignReport } from './report.ts';

/** Reports that cannot be merged; the message names the file and the problem (exit 2). */
export class MergeError extends Error {
  override readonly name = 'MergeError';
}

/** One report as read, with the path it came from (for messages). */
export interface ShardInput {
  path: string;
  report: unknown;
}

/** The last round number a plan can hold (2^31 - 1): no report catsim writes goes past it. */
const ROUND_MAX = 2 ** 31 - 1;

/** What merge reads of a report; everything else it carries is ignored. */
const REPORT_SCHEMA = {
  type: 'object',
  required: [
    'seed',
    'scenario',
    'scenarioPath',
    'scenarioDigest',
    'catalog',
    'core',
    'firstRound',
    'roundsPlanned',
    'roundsRun',
    'interrupted',
    'shard',
    'mergeData',
    'violationsByInvariant',
    'undecidedRounds',
    'endStates',
    'endReasons',
    'faultsEnabled',
    'failingRounds',
    'probes',
    'decisions',
    'receipts',
    'unknownDialectAdmissions',
    'probeCalls',
    'determinism',
    'elapsedMs',
  ],
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
      type: ['object', 'null'],
      required: ['index', 'count', 'firstRound', 'rounds'],
      properties: {
        index: { type: 'integer', minimum: 1 },
        count: { type: 'integer', minimum: 1 },
        firstRound: { type: 'integer', minimum: 0 },
        rounds: { type: 'integer', minimum: 1 },
      },
    },
    mergeData: {
      type: 'object',
      required: ['roundDigests', 'revocationDelaysMs', 'revocationsCensored', 'probeGate'],
      properties: {
        roundDigests: { type: 'array', items: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
        revocationDelaysMs: { type: 'array', items: { type: 'number' } },
        revocationsCensored: { type: 'integer', minimum: 0 },
        probeGate: {
          type: 'object',
          properties: { rounds: { type: 'integer' }, required: { type: 'array', items: { type: 'string' } } },
        },
      },
    },
    violationsByInvariant: { $ref: '#/$defs/counts' },
    undecidedRounds: { $ref: '#/$defs/count' },
    tail: {
      type: 'object',
      required: ['endedEarly', 'fullTailRounds'],
      properties: {
        endedEarly: { $ref: '#/$defs/count' },
        fullTailRounds: { type: 'array', items: { type: 'integer', minimum: 0 } },
      },
    },
    endStates: { $ref: '#/$defs/counts' },
    endReasons: { $ref: '#/$defs/counts' },
    faultsEnabled: { $ref: '#/$defs/counts' },
    probes: { $ref: '#/$defs/counts' },
    decisions: { $ref: '#/$defs/counts' },
    unknownDialectAdmissions: { $ref: '#/$defs/count' },
    failingRounds: { type: 'array', items: { type: 'object', required: ['round', 'undecided', 'violations'] } },
    determinism: {
      type: 'object',
      required: ['replayed', 'mismatches'],
      properties: { replayed: { $ref: '#/$defs/count' }, mismatches: { type: 'array' } },
    },
    receipts: {
      type: 'object',
      required: ['executed', 'covered'],
      properties: { executed: { $ref: '#/$defs/count' }, covered: { $ref: '#/$defs/count' } },
    },
    probeCalls: {
      type: 'object',
      required: ['expected', 'admitted'],
      properties: { expected: { $ref: '#/$defs/count' }, admitted: { $ref: '#/$defs/count' } },
    },
    elapsedMs: { type: 'number' },
    // Absent in reports written before them: read through the rollback trigger and surface counts.
    notJudged: {
      type: 'array',
      items: {
        type: 'object',
        required: ['capability', 'rounds', 'count', 'accepted'],
        properties: {
          capability: { enum: [...CAPABILITIES] },
          rounds: { $ref: '#/$defs/count' },
          count: { $ref: '#/$defs/count' },
          accepted: { type: 'boolean' },
        },
      },
    },
    notJudgedAccepted: { type: 'array', items: { enum: [...CAPABILITIES] } },
  },
  $defs: {
    /** A count: what a run writes, never negative or fractional. */
    count: { type: 'integer', minimum: 0 },
    /** Counts by name (invariant, state, reason, fault, probe or decision). */
    counts: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
  },
} as const;

const validateReport = new Ajv({ allErrors: false }).compile<CampaignReport>(REPORT_SCHEMA);

/** The fields every part of one campaign must agree on. */
const SAME = ['seed', 'scenario', 'scenarioDigest', 'core'] as const;

/** A report that passed the schema, with its file. */
interface Part {
  path: string;
  report: CampaignReport;
}

/**
 * Merges the reports of the parts of one campaign. A capability the core left out is accepted as
 * not judged when every part accepted it, or `notJudged` (`merge --not-judged`) names it: one
 * shard's `--not-judged` never excuses the others.
 * @throws MergeError when a file is not a report of catsim run, the parts are of different
 *   campaigns, a part covers no round, two parts share a round, or a round of a part's campaign
 *   is in no part.
 */
export function mergeShardReports(
  inputs: readonly ShardInput[],
  notJudged: readonly Capability[] = [],
): CampaignReport {
  if (inputs.length === 0) throw new MergeError('no reports given');
  const parts = inputs.map(readPart);
  const first = parts[0] as Part;
  for (const part of parts) checkSameCampaign(part, first);
  const ordered = [...parts].sort((a, b) => a.report.firstRound - b.report.firstRound);
  checkTiling(ordered);
  const start = (ordered[0] as Part).report.firstRound;
  const last = ordered.at(-1) as Part;
  const end = last.report.firstRound + last.report.roundsRun;
  checkCampaignsCovered(parts, start, end);
  const builder = new ReportBuilder(
    {
      seed: first.report.seed,
      scenario: first.report.scenario,
      scenarioPath: first.report.scenarioPath,
      scenarioDigest: first.report.scenarioDigest,
      catalog: first.report.catalog,
      core: first.report.core,
      firstRound: start,
      roundsPlanned: end - start,
      faults: Object.keys(first.report.faultsEnabled),
      notJudgedAccepted: [...notJudged, ...acceptedByEvery(parts)],
    },
    first.report.mergeData.probeGate,
  );
  for (const { report } of ordered) builder.addPart(report);
  return builder.build(
    parts.reduce((sum, { report }) => sum + report.elapsedMs, 0),
    false,
  );
}

/** The capabilities every part accepted as not judged (a report written before `notJudgedAccepted` accepted none). */
function acceptedByEvery(parts: readonly Part[]): Capability[] {
  return CAPABILITIES.filter((capability) =>
    parts.every(({ report }) => (report.notJudgedAccepted ?? []).includes(capability)),
  );
}

function readPart({ path, report }: ShardInput): Part {
  if (!validateReport(report)) {
    const error = validateReport.errors?.[0];
    const where = error === undefined ? '' : `${error.instancePath || '(top level)'} ${error.message}`;
    throw new MergeError(`${path}: not a report of catsim run --report (${where})`);
  }
  const campaign = report.shard ?? { firstRound: report.firstRound, rounds: report.roundsPlanned };
  if (
    campaign.firstRound + campaign.rounds - 1 > ROUND_MAX ||
    report.firstRound + report.roundsPlanned - 1 > ROUND_MAX
  ) {
    // Its advice (`catsim run --from R --rounds N`) would quote numbers catsim run refuses.
    throw new MergeError(
      `${path}: its rounds go past round ${ROUND_MAX}, the last round number: not a report catsim wrote`,
    );
  }
  if (report.roundsRun === 0)
    throw new MergeError(`${path}: covers no round (interrupted before its first round was done): nothing to merge`);
  if (report.mergeData.roundDigests.length !== report.roundsRun)
    throw new MergeError(
      `${path}: holds ${report.mergeData.roundDigests.length} round digests for ${report.roundsRun} rounds: not a report catsim wrote`,
    );
  return { path, report };
}

/** The same seed, scenario, catalog and core as `first`. */
function checkSameCampaign({ path, report }: Part, first: Part): void {
  for (const field of SAME) {
    if (report[field] !== first.report[field])
      throw new MergeError(
        `${path}: ${field} is ${JSON.stringify(report[field])}, but ${first.path} has ${JSON.stringify(first.report[field])}: not parts of one campaign`,
      );
  }
  if (JSON.stringify(report.catalog) !== JSON.stringify(first.report.catalog))
    throw new MergeError(`${path}: its catalog differs from ${first.path}'s: not parts of one campaign`);
}

/** Parts in round order cover one block: each starts where the one before it ends. */
function checkTiling(ordered: readonly Part[]): void {
  for (let i = 1; i < ordered.length; i += 1) {
    const before = ordered[i - 1] as Part;
    const part = ordered[i] as Part;
    const end = before.report.firstRound + before.report.roundsRun;
    if (part.report.firstRound < end)
      throw new MergeError(
        `${part.path}: its rounds ${roundsText(part.report.firstRound, part.report.roundsRun)} overlap the rounds ${roundsText(before.report.firstRound, before.report.roundsRun)} of ${before.path}`,
      );
    if (part.report.firstRound > end)
      throw new MergeError(
        `${missingText(end, part.report.firstRound - end)}: ${before.path} ends at round ${end - 1} and ${part.path} starts at round ${part.report.firstRound}${runHint(end, part.report.firstRound - end)}`,
      );
  }
}

/**
 * Every round of the campaign each part was run for (a shard's whole campaign, an interrupted
 * run's planned rounds) is in `start .. end - 1`.
 */
function checkCampaignsCovered(parts: readonly Part[], start: number, end: number): void {
  for (const { path, report } of parts) {
    const campaign = report.shard ?? { firstRound: report.firstRound, rounds: report.roundsPlanned };
    const campaignEnd = campaign.firstRound + campaign.rounds;
    const whose = `${path} ${report.shard === null ? 'was run for' : 'is a shard of'} rounds ${roundsText(campaign.firstRound, campaign.rounds)}`;
    if (campaign.firstRound < start)
      throw new MergeError(
        `${missingText(campaign.firstRound, start - campaign.firstRound)}, but ${whose}${runHint(campaign.firstRound, start - campaign.firstRound)}`,
      );
    if (campaignEnd > end)
      throw new MergeError(`${missingText(end, campaignEnd - end)}, but ${whose}${runHint(end, campaignEnd - end)}`);
  }
}

/** `rounds 12..13 are in no report`, or `round 12 is in no report`. */
function missingText(firstRound: number, rounds: number): string {
  return rounds === 1
    ? `round ${firstRound} is in no report`
    : `rounds ${roundsText(firstRound, rounds)} are in no report`;
}

/** `first..last`, or `first` alone for one round. */
function roundsText(firstRound: number, rounds: number): string {
  return rounds === 1 ? `${firstRound}` : `${firstRound}..${firstRound + rounds - 1}`;
}

/** How to run the missing rounds, after their range in a message. */
function runHint(from: number, rounds: number): string {
  return ` (catsim run --from ${from} --rounds ${rounds} with the same seed, scenario, catalog and core runs them)`;
}
