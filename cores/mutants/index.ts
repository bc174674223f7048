/**
 * The catalogue of deliberately broken cores (SPEC section 12): each is the reference core with
 * exactly one defence removed. The oracle must catch every one; `catsim run --core mutant:NAME`
 * runs a campaign on one, and `catsim prove` runs them all.
 */
import type { CoreFactory } from '../../sim/guard/adapter.ts';
import { referenceCore } from '../reference.ts';
import {
  ForwardUndisclosedGate,
  RefuseEverythingGate,
  RevocationOnRefreshGate,
  SnapshotWideDriftGate,
  TrustPlanGenerationGate,
  TrustReadOnlyHintGate,
  UnversionedWriteGate,
} from './gates.ts';
import { anyDialectChecks, NoEpochReceiptHost, SendRefusedNameHost, StickyIdentitySource } from './others.ts';
import {
  FabricatedScanRefresher,
  NoBarrierRefresher,
  ResettingDebounceRefresher,
  TrustTtlRefresher,
} from './refreshers.ts';
import {
  BlindStore,
  KeyWithoutTenantStore,
  NoCasRegistry,
  ServeExpiredRegistry,
  SharePublicStore,
} from './registries.ts';
import { PreCrashMemoryRegistry, ResumeFromCursorWalk, TwoTransactionPublishStore } from './restarts.ts';
import { JournalBesideDiskRegistry } from './journal-beside-disk.ts';
import { NeverResubscribesConnector } from './listen.ts';
import {
  AliasFollowsLatestHost,
  OutputUncheckedHost,
  TrustSemverClaimHost,
  BackupAnyContractHost,
  usageBlindStore,
  VersionByClaimHost,
} from './versions.ts';
import { DisableNotEnforcedRegistry, RollbackKeepsLeasingGate, RollbackToStaleRegistry } from './rollbacks.ts';
import {
  DOUBLE_SETTLEMENT,
  HOOKS_ADD_TOOLS,
  ONLY_EARLY_CHECK,
  REFUSAL_WITHOUT_SETTLEMENT,
  SEAL_FROM_FINAL_REQUEST,
  SHALLOW_BASELINE,
  SILENT_TOP_N,
} from './surface.ts';
import {
  AuthAsEmptyWalk,
  FirstPageOnlyWalk,
  IgnoreCacheScopeWalk,
  IgnoreIdentityWalk,
  KeepInvalidCursorPagesWalk,
  LastPageRevisionWalk,
  LateEmptyPublishWalk,
  NoCatalogLimitsWalk,
  NoCursorLoopDetectionWalk,
  NoFinalRecheckWalk,
  TwoEqualScansWalk,
} from './walks.ts';

/** One mutant: its name, the defence it lacks, the invariants expected to catch it, and how to build it. */
export interface Mutant {
  name: string;
  removedDefence: string;
  expectedCatchers: string[];
  core: CoreFactory;
  /**
   * The scenario `catsim prove` runs it on when not the one prove was given: the F18 mutants run on
   * `scenarios/host-restart.json`, whose rounds restart the host more often than the default's.
   */
  scenario?: string;
}

/** Every mutant, by name, in SPEC section 12 order (then issue 13's, before refuse-everything). */
export const MUTANTS: readonly Mutant[] = [
  {
    name: 'first-page-only',
    removedDefence: 'following nextCursor past page 1 (the SDK auto-refresh)',
    expectedCatchers: ['I1', 'I2', 'I12'],
    core: referenceCore({ walk: FirstPageOnlyWalk }),
  },
  {
    name: 'no-cursor-loop-detection',
    removedDefence: 'quarantine of a cursor requested twice',
    expectedCatchers: ['I13'],
    core: referenceCore({ walk: NoCursorLoopDetectionWalk }),
  },
  {
    name: 'two-equal-scans',
    removedDefence: 'revision binding (two equal scans taken as proof instead)',
    expectedCatchers: ['I1', 'I2'],
    core: referenceCore({ walk: TwoEqualScansWalk }),
  },
  {
    name: 'last-page-revision',
    removedDefence: "binding every page to page 1's revision (only the last page's counts)",
    expectedCatchers: ['I1', 'I2'],
    core: referenceCore({ walk: LastPageRevisionWalk }),
  },
  {
    name: 'no-final-recheck',
    removedDefence: 'the final recheck of page 1 before SNAPSHOT_PROVEN',
    expectedCatchers: ['I1'],
    core: referenceCore({ walk: NoFinalRecheckWalk }),
  },
  {
    name: 'unversioned-write',
    removedDefence: 'human confirmation for non-READ tools of unversioned sources',
    expectedCatchers: ['I3'],
    core: referenceCore({ gate: UnversionedWriteGate }),
  },
  {
    name: 'trust-readonly-hint',
    removedDefence: 'effect classes from trusted policy only (readOnlyHint believed)',
    expectedCatchers: ['I3'],
    core: referenceCore({ gate: TrustReadOnlyHintGate }),
  },
  {
    name: 'publish-without-cas',
    removedDefence: 'the compare-and-swap on the active pointer',
    expectedCatchers: ['I10'],
    core: referenceCore({ registry: NoCasRegistry, storeClass: BlindStore }),
  },
  {
    name: 'key-without-tenant',
    removedDefence:
      'the tenant in the catalog key (one shared pointer per identity and role; records relabelled with the key asked for)',
    expectedCatchers: ['I4'],
    core: referenceCore({ storeClass: KeyWithoutTenantStore }),
  },
  {
    name: 'no-recheck-at-call',
    removedDefence: "re-checking the active generation at call time (the plan's is trusted)",
    expectedCatchers: ['I8'],
    core: referenceCore({ gate: TrustPlanGenerationGate }),
  },
  {
    name: 'revocation-on-refresh',
    removedDefence: 'applying revocations at once (only a new generation re-reads grants)',
    expectedCatchers: ['I7'],
    core: referenceCore({ gate: RevocationOnRefreshGate }),
  },
  {
    name: 'any-dialect',
    removedDefence: 'refusing unknown JSON Schema dialects',
    expectedCatchers: ['I5'],
    core: referenceCore({ contentChecks: anyDialectChecks }),
  },
  {
    name: 'forward-undisclosed',
    removedDefence: 'reject-on-novel (undisclosed tools are forwarded)',
    expectedCatchers: ['I9'],
    core: referenceCore({ gate: ForwardUndisclosedGate }),
  },
  {
    name: 'receipt-without-epoch',
    removedDefence: 'the policy epoch in every receipt',
    expectedCatchers: ['I6'],
    core: referenceCore({ host: NoEpochReceiptHost }),
  },
  {
    name: 'serve-expired',
    removedDefence: 'refusing a generation past its expiresAt',
    expectedCatchers: ['I11'],
    core: referenceCore({ registry: ServeExpiredRegistry }),
  },
  {
    name: 'ignore-identity-rotation',
    removedDefence: 'following the identity the connection presents (certificate rotation ignored)',
    expectedCatchers: ['I12', 'I4'],
    core: referenceCore({ walk: IgnoreIdentityWalk, wrapSource: (source) => new StickyIdentitySource(source) }),
  },
  {
    name: 'no-catalog-limits',
    removedDefence: 'the whole-catalog limits (tool count, descriptor bytes) of SPEC section 5',
    expectedCatchers: ['I27'],
    core: referenceCore({ walk: NoCatalogLimitsWalk }),
  },
  {
    name: 'no-list-changed-barrier',
    removedDefence: 'holding calls after a list_changed until a scan started after it ends',
    expectedCatchers: ['I18'],
    core: referenceCore({ refresher: NoBarrierRefresher }),
  },
  {
    name: 'resetting-debounce',
    removedDefence:
      'a fixed coalescing delay after the first notification of a burst (the debounce resets on every one)',
    expectedCatchers: ['I19'],
    core: referenceCore({ refresher: ResettingDebounceRefresher }),
  },
  {
    name: 'fabricated-scans',
    removedDefence:
      'really listing again after a list_changed (the loop reports a whole fresh scan it never ran, and holds no call for it)',
    expectedCatchers: ['I18', 'I19'],
    core: referenceCore({ refresher: FabricatedScanRefresher }),
  },
  {
    name: 'send-refused-name',
    removedDefence:
      'sending nothing the gate refused (a name refused as undisclosed goes to the server anyway, without a lease)',
    expectedCatchers: ['I9'],
    core: referenceCore({ host: SendRefusedNameHost }),
  },
  {
    name: 'auth-refusal-as-empty',
    removedDefence:
      'ending a scan refused for authorization INCOMPLETE AUTH_REQUIRED (the refusal is read as an empty last page)',
    expectedCatchers: ['I20'],
    core: referenceCore({ walk: AuthAsEmptyWalk }),
  },
  {
    name: 'ignore-cache-scope',
    removedDefence:
      'ending a walk whose pages disagree on cacheScope INCOMPLETE CACHE_SCOPE_MIXED (MCP 2026-07-28, F24: the pages are published as one list)',
    expectedCatchers: ['I2'],
    core: referenceCore({ walk: IgnoreCacheScopeWalk }),
    scenario: 'modern',
  },
  {
    name: 'share-public',
    removedDefence:
      'keying every snapshot by its catalog key whatever the server says (MCP 2026-07-28, F25: a key whose list was public shares one pointer per identity and role)',
    expectedCatchers: ['I4'],
    core: referenceCore({ storeClass: SharePublicStore }),
    scenario: 'modern',
  },
  {
    name: 'keep-invalid-cursor-pages',
    removedDefence:
      'discarding every page of a walk whose cursor the server refused as invalid (MCP 2026-07-28, F28 and F11: the walk restarts from page 1 but keeps the pages it had read)',
    expectedCatchers: ['I31'],
    core: referenceCore({ walk: KeepInvalidCursorPagesWalk }),
    scenario: 'modern',
  },
  {
    name: 'never-resubscribes',
    removedDefence:
      'sending subscriptions/listen on every new connection (MCP 2026-07-28, F27 and F15: the server holds no subscription state; this core listens on its first connection only)',
    expectedCatchers: ['I32'],
    core: referenceCore({ connector: NeverResubscribesConnector }),
    scenario: 'modern',
  },
  {
    name: 'rollback-to-stale',
    removedDefence:
      'rolling back only to a generation that is unexpired and discovered under the policy, identity and trust holding now (F19)',
    expectedCatchers: ['I21'],
    core: referenceCore({ registry: RollbackToStaleRegistry }),
  },
  {
    name: 'rollback-keeps-leasing',
    removedDefence:
      'admitting and leasing only against the active generation after a rollback (F19: the rolled-away generation keeps being leased)',
    expectedCatchers: ['I28'],
    core: referenceCore({ gate: RollbackKeepsLeasingGate }),
  },
  {
    name: 'trust-ttl',
    removedDefence:
      'reading every list again whatever its ttlMs says (MCP 2026-07-28, F29 and F30: the loop skips its polls and the rescans a list_changed asks for while the TTL of the last proved catalog runs)',
    expectedCatchers: ['I33', 'I19'],
    core: referenceCore({ refresher: TrustTtlRefresher }),
    scenario: 'modern',
  },
  {
    name: 'disable-not-enforced',
    removedDefence:
      'serving nothing for a key a rollback DISABLED (F19: the DISABLE is reported, but the key keeps serving and leasing the generation the trigger judged bad)',
    expectedCatchers: ['I29'],
    core: referenceCore({ registry: DisableNotEnforcedRegistry }),
  },
  {
    name: 'emergency-disable-ignored',
    removedDefence:
      "refusing every later call of a tool an operator emergency-disabled (F26: the order is accepted and applied to nothing, so the tool's calls keep leaving)",
    expectedCatchers: ['I30'],
    core: referenceCore({ ignoreEmergencyDisable: true }),
    scenario: 'capability-versions',
  },
  {
    name: 'late-empty-publish',
    removedDefence:
      'publishing only what the walk read (issue 32: the sixth walk in a row that found nothing new publishes an empty catalog; a defect of the late quiet tail, caught through the rounds that run the whole tail)',
    expectedCatchers: ['I1', 'I2', 'I12'],
    core: referenceCore({ walk: LateEmptyPublishWalk }),
  },
  {
    name: 'deprecation-ignored',
    removedDefence:
      'binding no deprecated version in a new bundle (F31: the order is accepted and applied to nothing, so bundles built afterwards bind the deprecated versions again)',
    expectedCatchers: ['I34'],
    core: referenceCore({ ignoreDeprecation: true }),
    scenario: 'capability-versions',
  },
  {
    name: 'version-by-claim',
    removedDefence:
      "a new version for every new definition (F32: the host keeps naming a tool's first version after its description changed, as a registry keyed on the tool's claim would)",
    expectedCatchers: ['I35'],
    core: referenceCore({ host: VersionByClaimHost }),
    scenario: 'capability-versions',
  },
  {
    name: 'output-unchecked',
    removedDefence:
      "checking a result's structured content against the output schema of the version that ran (F33: a result that breaks it is passed on as valid)",
    expectedCatchers: ['I36'],
    core: referenceCore({ host: OutputUncheckedHost }),
    scenario: 'capability-versions',
  },
  {
    name: 'alias-follows-latest',
    removedDefence:
      "a run keeps the version it pinned when an alias flips (F34: the host resolves the tool's production alias again at each call, so a flip or rollback mid-run changes the definition the run's calls bind)",
    expectedCatchers: ['I37'],
    core: referenceCore({ host: AliasFollowsLatestHost }),
    scenario: 'capability-versions',
  },
  {
    name: 'breaking-alias-without-migration',
    removedDefence:
      'refusing an alias flip across a breaking diff without a migration note (F34: the host hands every order to the registry with a note the operator never wrote, so runs started afterwards bind the breaking release)',
    expectedCatchers: ['I37'],
    core: referenceCore({ assumeAliasMigration: true }),
    scenario: 'capability-versions',
  },
  {
    name: 'remove-while-referenced',
    removedDefence:
      "removing no version a run or bundle still references (F35: the host's usage graph sees no bundle and no run, so a removal of disabled versions is taken while live runs pin them, and their later calls are refused as gone)",
    expectedCatchers: ['I38'],
    core: referenceCore({ wrapCapabilityStore: usageBlindStore }),
    scenario: 'capability-versions',
  },
  {
    name: 'removal-misreported',
    removedDefence:
      "answering a removal as it was done (F35: the usage graph sees no bundle and no run, so the versions are removed under live runs, and the host answers the order refused REFERENCED anyway: only the runs' later calls, refused as gone, show it)",
    expectedCatchers: ['I38'],
    core: referenceCore({ wrapCapabilityStore: usageBlindStore, misreportRemoval: true }),
    scenario: 'capability-versions',
  },
  {
    name: 'disabled-still-executes',
    removedDefence:
      "refusing every call of a version once it is disabled (F35: the host takes the operator's disabled order as sunset, so runs that pinned the version keep calling it)",
    expectedCatchers: ['I38'],
    core: referenceCore({ disabledAsSunset: true }),
    scenario: 'capability-versions',
  },
  {
    name: 'announce-as-no-new-binding',
    removedDefence:
      "binding and calling a version an operator only announced deprecated (F35: the host takes the announce order as no-new-binding, so bundles built afterwards leave the version out and new runs' calls of it are refused)",
    expectedCatchers: ['I38'],
    core: referenceCore({ announceAsNoNewBinding: true }),
    scenario: 'capability-versions',
  },
  {
    name: 'trust-semver-claim',
    removedDefence:
      "refusing a run's call as drift when the contract it pinned changed (F36: the host classifies the change by the server's semver claim, so a breaking change claimed as a minor or patch release is executed for a run that pinned the old contract)",
    expectedCatchers: ['I39'],
    core: referenceCore({ host: TrustSemverClaimHost }),
    scenario: 'capability-versions',
  },
  {
    name: 'snapshot-wide-drift',
    removedDefence:
      "admitting a run's call while the contract it pinned is listed and served (F36: the gate takes a change of any tool of the run's pinned generation as drift, so a run that pinned a tool's new contract is refused when the server changes another tool beside it)",
    expectedCatchers: ['I39'],
    core: referenceCore({ gate: SnapshotWideDriftGate }),
    scenario: 'capability-versions',
  },
  {
    name: 'backup-any-contract',
    removedDefence:
      "failing over only to a backup serving the contract the run pinned (F37: the host skips the backup's contract check, so while the primary is down a backup serving another contract executes the run's call)",
    expectedCatchers: ['I40'],
    core: referenceCore({ host: BackupAnyContractHost }),
    scenario: 'capability-versions',
  },
  {
    name: 'refuse-everything',
    removedDefence: 'admitting anything at all',
    expectedCatchers: ['I12'],
    core: referenceCore({ gate: RefuseEverythingGate }),
  },
  {
    name: 'seal-from-final-request',
    removedDefence: 'a final check against the baseline (a seal made from the final request is compared instead)',
    expectedCatchers: ['I22', 'I23'],
    core: referenceCore({ surfaceParts: SEAL_FROM_FINAL_REQUEST }),
  },
  {
    name: 'shallow-baseline',
    removedDefence: 'a baseline that shares no object with what hooks receive (schema objects shared)',
    expectedCatchers: ['I22', 'I23'],
    core: referenceCore({ surfaceParts: SHALLOW_BASELINE }),
  },
  {
    name: 'only-early-check',
    removedDefence: 'the final check immediately before dispatch',
    expectedCatchers: ['I23', 'I22'],
    core: referenceCore({ surfaceParts: ONLY_EARLY_CHECK }),
  },
  {
    name: 'refusal-without-settlement',
    removedDefence: "settling each refusal through the owner's preDispatchRejected",
    expectedCatchers: ['I24'],
    core: referenceCore({ surfaceParts: REFUSAL_WITHOUT_SETTLEMENT }),
  },
  {
    name: 'double-settlement',
    removedDefence: 'settling each refusal exactly once',
    expectedCatchers: ['I24'],
    core: referenceCore({ surfaceParts: DOUBLE_SETTLEMENT }),
  },
  {
    name: 'silent-top-n',
    removedDefence: 'CAPACITY_EXCEEDED instead of a silent top-N cut',
    expectedCatchers: ['I25', 'I22', 'I23'],
    core: referenceCore({ surfaceParts: SILENT_TOP_N }),
  },
  {
    name: 'hooks-add-tools',
    removedDefence: 'refusing tools the original owners did not admit (hooks may add them)',
    expectedCatchers: ['I22', 'I23'],
    core: referenceCore({ surfaceParts: HOOKS_ADD_TOOLS }),
  },
  {
    name: 'two-transaction-publish',
    removedDefence:
      'the pointer and its catalog receipt in one transaction (F18: a crash between them leaves a half publish on the disk)',
    expectedCatchers: ['I15'],
    core: referenceCore({ diskStore: (db, name) => new TwoTransactionPublishStore(db, name) }),
    scenario: 'host-restart',
  },
  {
    name: 'resume-walk-after-restart',
    removedDefence:
      'starting every walk of a new process from page 1 (F18: a half-finished walk is resumed from its saved cursor)',
    expectedCatchers: ['I14', 'I2'],
    core: referenceCore({ walk: ResumeFromCursorWalk }),
    scenario: 'host-restart',
  },
  {
    name: 'trust-pre-crash-memory',
    removedDefence:
      'reloading the registry from the durable store after a restart (F18: the pre-crash in-memory pointers are trusted)',
    expectedCatchers: ['I15'],
    core: referenceCore({ registry: PreCrashMemoryRegistry }),
    scenario: 'host-restart',
  },
  {
    name: 'journal-beside-disk',
    removedDefence:
      "recovering only what the database committed (F18: a write-ahead journal kept beside the database, outside its transaction, is trusted after a restart, so a dead boot's uncommitted publish comes back)",
    expectedCatchers: ['I15'],
    core: referenceCore({ registry: JournalBesideDiskRegistry }),
    scenario: 'host-restart',
  },
];
