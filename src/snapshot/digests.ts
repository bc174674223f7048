/**
 * The digests of `toolCatalogSnapshot.v1` (SPEC section 4). All are lowercase hex sha256.
 *
 * Each function takes an optional {@link DigestMemos} (a host's `CoreMemos`, src/memos.ts): with
 * it, digests of descriptors and pages seen before are looked up instead of computed again (servers
 * resend the same descriptors on every scan); without it, every digest is computed. The memos
 * change no answer, only the work.
 */
import { createHash } from 'node:crypto';
import type { BoundedMemo } from '../bounded-memo.ts';
import { domainDigest, jcs, jcsMemo, jcsMemoOfText, sha256Hex, sortedKeys } from './canonical.ts';

/** Where the digest functions keep what they computed: bounded memos, each owned by the caller. */
export interface DigestMemos {
  /** Descriptor digests by the tool's JSON text. */
  readonly descriptorDigests: BoundedMemo<string>;
  /** Page digests by (cursors, revision, the tools' descriptor digests). */
  readonly pageDigests: BoundedMemo<string>;
  /** Page roots by their page digests, concatenated. */
  readonly pageRoots: BoundedMemo<string>;
  /** Canonical (JCS) texts by `JSON.stringify` text ({@link jcsMemo}). */
  readonly canonicalTexts: BoundedMemo<string>;
}

/** sha256("catsim.descriptor.v1\n" + JCS(tool exactly as sent, annotations and `_meta` included)). */
export function descriptorDigest(tool: unknown, memos?: DigestMemos): string {
  return descriptorDigestOfText(tool, JSON.stringify(tool), memos);
}

/**
 * {@link descriptorDigest} of `tool` whose `JSON.stringify` text the caller already has
 * (PageReply.toolTexts; `'null'` or undefined for a tool with no JSON form): the text is the
 * memo key, so the descriptor is not stringified again.
 */
export function descriptorDigestOfText(tool: unknown, text: string | undefined, memos?: DigestMemos): string {
  if (text === 'null' && tool !== null) text = JSON.stringify(tool);
  if (text === undefined) return sha256Hex(`catsim.descriptor.v1\n${jcsMemo(tool, memos?.canonicalTexts)}`);
  const compute = (): string => sha256Hex(`catsim.descriptor.v1\n${jcsMemoOfText(tool, text, memos?.canonicalTexts)}`);
  return memos === undefined ? compute() : memos.descriptorDigests.get(text, compute);
}

/** Digest of a sub-schema (`inputSchema`, `outputSchema`), or null when the tool has none. */
export function schemaDigest(schema: unknown, memos?: DigestMemos): string | null {
  return schema === undefined ? null : sha256Hex(`catsim.schema.v1\n${jcsMemo(schema, memos?.canonicalTexts)}`);
}

/** The fields a page digest covers: cursors as string or null, revision as integer or null. */
export interface PageDigestInput {
  cursorIn: string | null;
  cursorOut: string | null;
  revision: number | null;
  tools: readonly unknown[];
  /** `JSON.stringify` of each tool (`'null'` for none), when the caller has them (PageReply.toolTexts). */
  toolTexts?: readonly string[] | undefined;
}

/** sha256("catsim.page.v1\n" + JCS({cursorIn, cursorOut, revision, tools})). */
export function pageDigest(page: PageDigestInput, memos?: DigestMemos): string {
  const compute = (): string => sha256Hex(`catsim.page.v1\n${canonicalPage(page, memos)}`);
  if (memos === undefined) return compute();
  // Keyed by the cursors, the revision and the tools' descriptor digests (each a sha256 of the
  // tool's canonical form, itself memoised by the tool's text): 64 characters a tool instead of
  // the page's whole text, so the memo's keys stay small however large the descriptors are.
  const texts = page.toolTexts;
  const digests = page.tools.map((tool, index) =>
    texts === undefined ? descriptorDigest(tool, memos) : descriptorDigestOfText(tool, texts[index], memos),
  );
  const key = `${JSON.stringify([page.cursorIn, page.cursorOut, page.revision])}${digests.join(',')}`;
  return memos.pageDigests.get(key, compute);
}

/**
 * JCS({cursorIn, cursorOut, revision, tools}) composed from the tools' memoised canonical
 * texts. The four keys are already in JCS order (UTF-16 code units: "cursorIn" < "cursorOut" <
 * "revision" < "tools"), so the composition equals canonicalising the whole object.
 */
function canonicalPage(page: PageDigestInput, memos: DigestMemos | undefined): string {
  const texts = page.toolTexts;
  const memo = memos?.canonicalTexts;
  const tools = page.tools
    .map((tool, index) => (texts === undefined ? jcsMemo(tool, memo) : jcsMemoOfText(tool, texts[index], memo)))
    .join(',');
  return `{"cursorIn":${jcs(page.cursorIn)},"cursorOut":${jcs(page.cursorOut)},"revision":${jcs(page.revision)},"tools":[${tools}]}`;
}

/** The page root's starting value: 32 zero bytes, as hex. */
export const EMPTY_PAGE_ROOT = '0'.repeat(64);

/**
 * Fold over page digests in cursor order: root = sha256(root ‖ pageDigest), over raw bytes,
 * starting from 32 zero bytes.
 * @throws TypeError when a digest is not 64 hex characters.
 */
export function pageRoot(pageDigests: readonly string[], memos?: DigestMemos): string {
  for (const digest of pageDigests) {
    if (!SHA256_HEX.test(digest)) throw new TypeError(`not a sha256 hex digest: ${digest}`);
  }
  if (memos === undefined) return foldPageRoot(pageDigests);
  // Every digest is 64 characters now, so their concatenation names the list unambiguously. A
  // rescan that sees the same pages folds the same list, once to confirm the active generation
  // and again when it builds a snapshot.
  return memos.pageRoots.get(pageDigests.join(''), () => foldPageRoot(pageDigests));
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

function foldPageRoot(pageDigests: readonly string[]): string {
  let root = Buffer.alloc(32);
  for (const digest of pageDigests)
    root = createHash('sha256').update(root).update(Buffer.from(digest, 'hex')).digest();
  return root.toString('hex');
}

/**
 * sha256("catsim.snapshot.v1\n" + JCS(artifact)); the artifact never holds generation or status.
 * Equal to `domainDigest('catsim.snapshot.v1', artifact)`, computed faster: each member of the
 * artifact's `tools` array is canonicalised through {@link jcsMemo} (a republished snapshot
 * carries the same tools), the rest as usual.
 * @throws TypeError / Error as {@link jcs} does for a value with no JSON form.
 */
export function snapshotDigest(artifact: unknown, memos?: DigestMemos): string {
  return sha256Hex(`catsim.snapshot.v1\n${canonicalArtifact(artifact, memos?.canonicalTexts)}`);
}

/**
 * JCS of an object composed member by member, exactly as RFC 8785 (and the `canonicalize`
 * package) writes it: own keys in UTF-16 code-unit order, members whose value is undefined or a
 * symbol left out; in a `tools` array, undefined and symbols become null. Anything that is not a
 * plain object with a `tools` array is canonicalised whole.
 */
function canonicalArtifact(artifact: unknown, memo: BoundedMemo<string> | undefined): string {
  if (
    typeof artifact !== 'object' ||
    artifact === null ||
    Array.isArray(artifact) ||
    typeof (artifact as { toJSON?: unknown }).toJSON === 'function'
  )
    return jcs(artifact);
  const record = artifact as Record<string, unknown>;
  if (!Array.isArray(record.tools)) return jcs(artifact);
  const members: string[] = [];
  for (const key of sortedKeys(record)) {
    const value = record[key];
    if (value === undefined || typeof value === 'symbol') continue;
    const text =
      key === 'tools'
        ? `[${(value as unknown[]).map((tool) => (tool === undefined || typeof tool === 'symbol' ? 'null' : (snapshotToolText(tool, memo) ?? jcsMemo(tool, memo)))).join(',')}]`
        : jcs(value);
    members.push(`${jcs(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** The members of a snapshot's tool (`SnapshotTool`), in JCS order (UTF-16 code units). */
const SNAPSHOT_TOOL_KEYS = [
  'annotations',
  'descriptorDigest',
  'effectClass',
  'inputSchemaDigest',
  'name',
  'outputSchemaDigest',
  'shortDescription',
  'source',
  'verdict',
] as const;

/**
 * JCS of one snapshot tool composed member by member, equal to `jcs(tool)`: the descriptor
 * (`source`, the bulk of the text) through {@link jcsMemo}, which finds the text the page source
 * kept instead of stringifying it, the small members through {@link jcs}, in the order
 * {@link SNAPSHOT_TOOL_KEYS} lists them (already JCS order). Undefined, and the caller
 * canonicalises the tool whole, for anything but a plain object with exactly those members
 * (none of them undefined, a symbol or a function, which JCS would leave out or reject).
 */
function snapshotToolText(tool: unknown, memo: BoundedMemo<string> | undefined): string | undefined {
  if (typeof tool !== 'object' || tool === null || Object.getPrototypeOf(tool) !== Object.prototype) return undefined;
  const record = tool as Record<string, unknown>;
  if (Object.keys(record).length !== SNAPSHOT_TOOL_KEYS.length || typeof record.toJSON === 'function') return undefined;
  let text = '{';
  for (const key of SNAPSHOT_TOOL_KEYS) {
    if (!Object.hasOwn(record, key)) return undefined;
    const value = record[key];
    if (value === undefined || typeof value === 'symbol' || typeof value === 'function') return undefined;
    text += `${text.length > 1 ? ',' : ''}"${key}":${key === 'source' ? jcsMemo(value, memo) : jcs(value)}`;
  }
  return `${text}}`;
}
