/**
 * The campaign digests of docs/digests.json (test/support/campaign-digests.ts): the small
 * campaigns are run again here, in this process, and must print exactly the digests the file
 * holds; a change that moves a trace fails this test until `npx tsx scripts/digests.ts` rewrites
 * them (and the commit says so). The long campaigns cannot be run by a test: each must have been
 * measured on the current checked digests, or say it is stale.
 */
import { describe, expect, it } from 'vitest';
import { basisOf, campaignDigestOf, digestsText, readDigests } from './support/campaign-digests.ts';
import { readFileSync } from 'node:fs';

const file = readDigests();

describe('docs/digests.json', () => {
  it('is in its own format: the checked campaigns one a line, every field of every recorded one filled', () => {
    expect(readFileSync('docs/digests.json', 'utf8')).toBe(digestsText(file));
    expect(file.checked.length).toBeGreaterThanOrEqual(4);
    for (const entry of file.checked) expect(entry.digest, entry.args.join(' ')).toMatch(/^[0-9a-f]{64}$/);
    for (const entry of file.recorded) {
      expect(entry.command, entry.command).toMatch(/^npx catsim run --seed \S+ /);
      expect(entry.digest, entry.command).toMatch(/^[0-9a-f]{64}$/);
      expect(entry.basis, entry.command).toMatch(/^[0-9a-f]{64}$/);
      expect(entry.commit, entry.command).toMatch(/^[0-9a-f]{7,}(\+changes)?$/);
      expect(entry.date, entry.command).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry.wallSeconds, entry.command).toBeGreaterThan(0);
    }
  });

  it.each(file.checked.map((entry) => [entry.args.join(' '), entry] as const))(
    'catsim run %s prints the digest it holds',
    async (_, entry) => {
      expect(await campaignDigestOf(entry.args)).toBe(entry.digest);
    },
  );

  it('marks stale every recorded campaign measured on other checked digests than these', () => {
    const basis = basisOf(file.checked);
    expect(
      file.recorded.filter((entry) => entry.basis !== basis && entry.stale !== true).map((entry) => entry.command),
    ).toEqual([]);
    expect(
      file.recorded.filter((entry) => entry.basis === basis && entry.stale === true).map((entry) => entry.command),
    ).toEqual([]);
  });
});
