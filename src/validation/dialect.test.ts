import { describe, expect, it } from 'vitest';
import { dialectOf, normaliseDialectUri } from './dialect.ts';
import { DEFAULT_TRUST, DIALECT_2020_12, DIALECT_DRAFT_07 } from './trust.ts';

describe('dialect pinning', () => {
  it('folds only the empty fragment, and http/https on json-schema.org', () => {
    expect(
      [
        'http://json-schema.org/draft-07/schema#',
        'https://json-schema.org/draft-07/schema',
        'https://json-schema.org/draft/2020-12/schema#',
        'https://example.com/schema#',
        'http://example.com/schema',
        'HTTP://JSON-SCHEMA.ORG/draft-07/schema#',
      ].map(normaliseDialectUri),
    ).toEqual([
      'https://json-schema.org/draft-07/schema',
      'https://json-schema.org/draft-07/schema',
      'https://json-schema.org/draft/2020-12/schema',
      'https://example.com/schema',
      'http://example.com/schema',
      'HTTP://JSON-SCHEMA.ORG/draft-07/schema',
    ]);
  });

  it('pins absent $schema to 2020-12 and refuses what is not accepted or not validatable', () => {
    expect(
      [
        undefined,
        DIALECT_2020_12,
        DIALECT_DRAFT_07,
        'https://json-schema.org/draft-07/schema',
        'http://json-schema.org/draft-04/schema#',
        'https://json-schema.org/draft/2019-09/schema',
        'urn:example:dialect',
        null,
        12,
      ].map((uri) => dialectOf(uri, DEFAULT_TRUST)),
    ).toEqual(['2020-12', '2020-12', 'draft-07', 'draft-07', null, null, null, null, null]);
  });

  it('matches accepted dialects listed in any equivalent spelling', () => {
    const trust = { ...DEFAULT_TRUST, acceptedDialects: ['https://json-schema.org/draft-07/schema'] };
    expect([dialectOf(DIALECT_DRAFT_07, trust), dialectOf(undefined, trust)]).toEqual(['draft-07', null]);
  });
});
