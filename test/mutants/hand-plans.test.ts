/**
 * SPEC section 12: every mutant core has a hand-built plan (test/mutants/plans.ts) on which the
 * reference core has zero violations and the mutant is caught by the invariant it is meant to
 * break. The codes below are every (invariant, code) the oracle reports on the mutant's run, worked
 * out from what the removed defence lets through (each plan's comment tells the story); any other
 * finding would mean the plan (or the oracle) catches something else than the missing defence.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../cores/mutants/index.ts';
import { runHand } from '../support/hand-plan.ts';
import { MUTANT_PLANS } from './plans.ts';

/** Every `invariant code` the oracle reports on each mutant's hand plan. */
const CAUGHT_BY: Record<string, string[]> = {
  // Page 1 taken as the catalog: 2 of 5 tools published, never converged.
  'first-page-only': ['I1 CONTENT_MISMATCH', 'I2 PAGE_NOT_SERVED', 'I12 NOT_CONVERGED'],
  'no-cursor-loop-detection': ['I13 CURSOR_REQUESTED_TWICE'],
  // The A-B-A scan is proven by a second equal walk: no recheck, and its pages carry the second walk's scanId.
  'two-equal-scans': ['I1 NO_FINAL_RECHECK', 'I2 PAGE_NOT_SERVED', 'I13 PAGE_NOT_SERVED'],
  // Page 1 of revision 7 (before the edit at 17) published as revision 8.
  'last-page-revision': ['I1 CONTENT_MISMATCH', 'I2 MIXED_REVISIONS', 'I2 REPORTED_MISMATCH', 'I12 NOT_CONVERGED'],
  'no-final-recheck': ['I1 NO_FINAL_RECHECK'],
  'unversioned-write': ['I3 UNCONFIRMED_WRITE_EXECUTED'],
  'trust-readonly-hint': ['I3 UNCONFIRMED_WRITE_EXECUTED'],
  'publish-without-cas': ['I10 GENERATION_REPEATED'],
  // One shared pointer for acme.dev and globex.dev: each is shown the other's edition (FOREIGN_TOOL),
  // under its own key label but with generation numbers the other tenant's publishes moved.
  'key-without-tenant': [
    'I10 CONFLICT_MISSTATED',
    'I10 GENERATION_GAP',
    'I4 DISCLOSED_UNKNOWN_GENERATION',
    'I4 FOREIGN_TOOL',
    'I8 STALE_PLAN_ADMITTED',
  ],
  'no-recheck-at-call': ['I8 TOOL_NOT_IN_GENERATION'],
  'revocation-on-refresh': ['I7 REVOKED_TOOL_ADMITTED'],
  'any-dialect': ['I5 DEFECT_ADMITTED'],
  'forward-undisclosed': ['I9 UNDISCLOSED_TOOL_ADMITTED', 'I9 UNDISCLOSED_TOOL_EXECUTED'],
  'receipt-without-epoch': ['I6 RECEIPT_UNBOUND'],
  'serve-expired': ['I11 EXPIRED_GENERATION_SERVED'],
  // The rotation mid-walk goes unnoticed: the walk publishes under the old identity, the new key never.
  'ignore-identity-rotation': ['I12 NOT_PUBLISHED'],
  // Published (50), shown to the planner, and the quiet tail's probe calls admitted against it.
  'no-catalog-limits': ['I27 OVER_LIMIT_ADMITTED', 'I27 OVER_LIMIT_DISCLOSED', 'I27 OVER_LIMIT_PUBLISHED'],
  // Every early call is one the world saw leave before a whole fresh list was served (issue 27):
  // the world's rule reports it, and the receipt rule does not report the same call again.
  'no-list-changed-barrier': ['I18 CALL_BEFORE_RELIST'],
  'resetting-debounce': ['I19 REFRESH_STARVED'],
  'fabricated-scans': ['I18 CALL_BEFORE_RELIST', 'I19 REFRESH_STARVED'],
  'send-refused-name': ['I9 UNDISCLOSED_TOOL_SENT'],
  // The refusal read as an empty last page: an empty catalog published at 1060 from pages the
  // server never served (I2, I13) and from a scan it refused (I20).
  'auth-refusal-as-empty': [
    'I13 PAGE_NOT_SERVED',
    'I2 PAGE_NOT_SERVED',
    'I20 AUTH_REFUSAL_MISREPORTED',
    'I20 AUTH_REFUSED_PUBLISHED',
  ],
  // F24: the walk of 25 (private) and 35 (public) published at 50 as one list.
  // F32: read_file's second receipt (after the description change at 600) still names v1.
  'version-by-claim': ['I35 ONE_VERSION_TWO_DEFINITIONS'],
  // F31: the quiet tail's read_file probe through generation 2 (first disclosed after the order) is admitted.
  'deprecation-ignored': ['I34 NEW_BINDING_OF_DEPRECATED'],
  // F33: read_file's first result (extra property \`note\`) passed on as ok.
  'output-unchecked': ['I36 INVALID_RESULT_PASSED'],
  // Generation 2's run, bound under release 0, sees the flip at 900 in its three calls after it.
  'alias-follows-latest': ['I37 DEFINITION_CHANGED_MID_RUN'],
  // The breaking flip at 900 is taken: generations 3 and 4, first shown after it, bind version 2.
  'breaking-alias-without-migration': ['I37 BREAKING_BOUND_WITHOUT_MIGRATION'],
  // F35: the removal at 1,300 taken under the run shown read_file v1 at 100; its seven later calls refused as gone.
  'remove-while-referenced': ['I38 REFERENCED_VERSION_VANISHED', 'I38 REMOVED_WHILE_REFERENCED'],
  // F35: the same removal taken but answered refused: only the seven calls refused as gone show it.
  'removal-misreported': ['I38 REFERENCED_VERSION_VANISHED'],
  // F35: the disabled order at 900 taken as sunset; the run's calls from 913 on leave the core.
  'disabled-still-executes': ['I38 EXECUTED_AFTER_DISABLED'],
  // F35: the announce at 200 taken as no-new-binding; the call at 403 through generation 2 (first shown at 400) refused.
  'announce-as-no-new-binding': ['I38 ANNOUNCED_VERSION_REFUSED'],
  // F36: get_weather's calls planned before the breaking change at 800, sent after generation 2 listed it, rebound.
  'trust-semver-claim': ['I39 BREAKING_CONTRACT_EXECUTED'],
  // F36: get_weather's runs shown generation 2 refused at 1,500..1,800 for list_directory's change beside it.
  'snapshot-wide-drift': ['I39 PINNED_CONTRACT_REFUSED'],
  // F37: the eight read_file calls during the outage (500 to 1,300) run on the backup's other contract.
  'backup-any-contract': ['I40 BACKUP_CONTRACT_EXECUTED'],
  'ignore-cache-scope': ['I2 SCOPE_MIXED'],
  // F25: globex.dev shown acme.dev's generation 1 from the shared pointer (its own publish lost the CAS).
  'share-public': [
    'I10 CONFLICT_MISSTATED',
    'I10 GENERATION_GAP',
    'I4 DISCLOSED_UNKNOWN_GENERATION',
    'I4 FOREIGN_TOOL',
  ],
  // F29: the change at 1300, pushed nowhere, read at 2525 (the TTL of 2500 read at 20), past 2305.
  'trust-ttl': ['I33 NOT_POLLED'],
  // F19: generation 1 (scan at 0) predates the revocation at 400; the trigger at 600 republishes it (seq 42).
  'rollback-to-stale': ['I21 ROLLBACK_TO_UNAUTHORIZED'],
  // The rollback at 505 makes generation 3 active; the mutant's gate still admits the planner's next call against 2.
  'rollback-keeps-leasing': ['I28 LEASE_FOR_ROLLED_AWAY'],
  // The key DISABLED at 600 keeps serving generation 2: the planner's calls after it are admitted (I11)
  // and leave for s0 before any new publish (I29, from the world's call_sent).
  'disable-not-enforced': ['I11 SERVED_WHILE_DISABLED', 'I29 CALL_WHILE_DISABLED'],
  // The sixth walk in a row with the same pages (1750) is published empty: no page of it was
  // served to that publish's chain, the tools are gone, and it stays the key's latest publish.
  'late-empty-publish': ['I1 CONTENT_MISMATCH', 'I12 NOT_CONVERGED', 'I2 CHAIN_BROKEN'],
  'refuse-everything': ['I12 PROBE_REFUSED'],
  // The surface round of 29 turns (test/faults/f22-surface-hooks.test.ts works out each turn):
  // an edit the missing check lets through reaches the model (I22) after a mismatch (I23).
  'seal-from-final-request': ['I22 CONTENT_CHANGED', 'I23 MISMATCH_DISPATCHED'],
  'shallow-baseline': ['I22 CONTENT_CHANGED', 'I23 MISMATCH_DISPATCHED'],
  'only-early-check': ['I22 CONTENT_CHANGED', 'I23 MISMATCH_DISPATCHED'],
  'refusal-without-settlement': ['I24 NOT_SETTLED'],
  // The second settlement is refused by the world's ledger, which the core's modelTurn sees as a rejection.
  'double-settlement': ['CORE_FAILED REJECTED', 'I24 SETTLED_TWICE'],
  'silent-top-n': ['I22 MISSING_TOOL', 'I23 MISMATCH_DISPATCHED', 'I25 SHORTFALL_DISPATCHED'],
  'hooks-add-tools': ['I22 UNADMITTED_TOOL', 'I23 MISMATCH_DISPATCHED'],
  // Host restarts (test/faults/f18-host-restart.test.ts): the pointer committed without its receipt
  // survives the crash that cut the publish, and the next boot's generation numbers follow it.
  'two-transaction-publish': [
    'I10 GENERATION_GAP',
    'I15 CUT_PUBLISH_COMMITTED',
    'I15 UNCOMMITTED_PUBLISH_SERVED',
    'I4 DISCLOSED_UNKNOWN_GENERATION',
  ],
  // The crash inside generation 1's transaction (at 50) leaves it in the journal beside the
  // database: boot 1 shows it (never published) and leases calls on it; its own scans then expect
  // generation 1 against a database at 0, every publish is a CAS conflict, and the key never publishes.
  'journal-beside-disk': [
    'I12 NOT_PUBLISHED',
    'I15 UNCOMMITTED_PUBLISH_SERVED',
    'I17 LEASE_FOR_UNCOMMITTED_GENERATION',
    'I4 DISCLOSED_UNKNOWN_GENERATION',
    'I8 NO_ACTIVE_GENERATION',
  ],
  'resume-walk-after-restart': ['I14 PAGE_FROM_BEFORE_RESTART'],
  // Boot 1 serves generation 1 from the dead boot's memory after boot 0 reported 2 published: stale
  // plans pass. Its leases bind generation 1, which was committed too, so I17 no longer reads them as
  // uncommitted (it did while it read the disk's one active pointer, 2).
  'trust-pre-crash-memory': ['I15 STALE_GENERATION_SERVED', 'I8 TOOL_NOT_IN_GENERATION'],
  // read_file's probe at 2,038 leaves the core after the order at 500.
  'emergency-disable-ignored': ['I30 EXECUTED_AFTER_EMERGENCY_DISABLE'],
  // F28: scan-0's page 2 refused at 35; the mutant re-reads page 1 (45) and page 2 (55) under scan-0
  // and publishes at 70 the old page 1 beside them: a chain with page 1 twice (I2), cursor "WzAsMiwwXQ"
  // asked twice and page 1 asked a third time (I13), and a page served before the refusal (I31).
  'keep-invalid-cursor-pages': [
    'I13 CURSOR_REQUESTED_TWICE',
    'I13 EXTRA_CURSORLESS_REQUEST',
    'I2 CHAIN_BROKEN',
    'I31 INVALID_CURSOR_PAGE_KEPT',
  ],
  // F27: the connection cut at 100; the mutant's connection 2, opened at 1,040, carries no listen.
  'never-resubscribes': ['I32 LISTEN_NOT_SENT'],
};

describe('every mutant is caught on its own hand-built plan', () => {
  it('every mutant has a plan and a pinned verdict, and nothing else does', () => {
    expect(Object.keys(MUTANT_PLANS).sort()).toEqual(MUTANTS.map((m) => m.name).sort());
    expect(Object.keys(CAUGHT_BY).sort()).toEqual(MUTANTS.map((m) => m.name).sort());
  });

  for (const mutant of MUTANTS) {
    it(`${mutant.name}: the reference core is clean; the mutant is caught by ${mutant.expectedCatchers.join(' or ')}`, async () => {
      const build = MUTANT_PLANS[mutant.name]!;
      const reference = await runHand(build());
      expect(reference.status).toBe('settled');
      expect(reference.verdict.violations).toEqual([]);
      const broken = await runHand(build(), mutant.core, `mutant:${mutant.name}`);
      const codes = [...new Set(broken.verdict.violations.map((v) => `${v.invariant} ${v.code}`))].sort();
      expect(codes).toEqual([...CAUGHT_BY[mutant.name]!].sort());
      expect(broken.verdict.violations.some((v) => mutant.expectedCatchers.includes(v.invariant))).toBe(true);
    });
  }
});
