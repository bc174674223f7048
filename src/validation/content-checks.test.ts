import http from 'node:http';
import https from 'node:https';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkTools, type ToolVerdict } from './content-checks.ts';
import { REFERENCE_TOOLS, schemaOfDepth, tool, verdicts } from './testing/support.ts';
import { DEFAULT_TRUST, DIALECT_2020_12, DIALECT_DRAFT_07, type TrustConfig } from './trust.ts';
import { ValidationMemos } from './validation-memos.ts';

/** The memos of the tests that look into them (at a host's default sizes). */
const MEMOS = new ValidationMemos(16_384, 1_000);

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';
const OBJECT = { type: 'object' };

/** One tool per case, checked alone: [label, tool, expected verdict]. */
function expectEach(cases: [string, unknown, ToolVerdict][], trust: TrustConfig = DEFAULT_TRUST): void {
  const actual = cases.map(([label, descriptor]) => [label, verdicts([descriptor], trust)[0]]);
  expect(actual).toEqual(cases.map(([label, , verdict]) => [label, verdict]));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('reference servers (verbatim tools/list results, draft-07 $schema)', () => {
  it('passes every tool of server-everything, server-filesystem and server-memory', () => {
    expect(verdicts(REFERENCE_TOOLS.everything)).toEqual(Array(13).fill('ok'));
    expect(verdicts(REFERENCE_TOOLS.filesystem)).toEqual(Array(14).fill('ok'));
    expect(verdicts(REFERENCE_TOOLS.memory)).toEqual(Array(9).fill('ok'));
  });

  it('passes read_text_file, whose input and output schemas both pin draft-07', () => {
    const readTextFile = REFERENCE_TOOLS.filesystem.find((descriptor) => descriptor.name === 'read_text_file');
    expect((readTextFile?.inputSchema as { $schema: string }).$schema).toBe(DIALECT_DRAFT_07);
    expect((readTextFile?.outputSchema as { $schema: string }).$schema).toBe(DIALECT_DRAFT_07);
    expect(verdicts([readTextFile])).toEqual(['ok']);
  });
});

describe('dialect pinning', () => {
  it('accepts absent $schema (2020-12), both default dialects and their equivalent spellings', () => {
    expectEach([
      [
        'absent',
        tool('a', { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }] } } }),
        'ok',
      ],
      ['2020-12', tool('a', { $schema: DIALECT_2020_12, type: 'object' }), 'ok'],
      ['2020-12 with #', tool('a', { $schema: `${DIALECT_2020_12}#`, type: 'object' }), 'ok'],
      [
        '2020-12 over http',
        tool('a', { $schema: 'http://json-schema.org/draft/2020-12/schema', type: 'object' }),
        'ok',
      ],
      ['draft-07', tool('a', { $schema: DIALECT_DRAFT_07, type: 'object' }), 'ok'],
      ['draft-07 without #', tool('a', { $schema: 'http://json-schema.org/draft-07/schema', type: 'object' }), 'ok'],
      ['draft-07 over https', tool('a', { $schema: 'https://json-schema.org/draft-07/schema#', type: 'object' }), 'ok'],
    ]);
  });

  it('refuses draft-04, unknown URIs, non-strings and other spellings as UNKNOWN_DIALECT', () => {
    expectEach([
      ['draft-04', tool('a', { $schema: DRAFT_04, type: 'object' }), 'UNKNOWN_DIALECT'],
      ['unknown URI', tool('a', { $schema: 'https://example.com/my-dialect', type: 'object' }), 'UNKNOWN_DIALECT'],
      [
        '2019-09',
        tool('a', { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' }),
        'UNKNOWN_DIALECT',
      ],
      ['unversioned', tool('a', { $schema: 'http://json-schema.org/schema#', type: 'object' }), 'UNKNOWN_DIALECT'],
      [
        'www host',
        tool('a', { $schema: 'https://www.json-schema.org/draft/2020-12/schema', type: 'object' }),
        'UNKNOWN_DIALECT',
      ],
      [
        'upper case',
        tool('a', { $schema: 'HTTP://JSON-SCHEMA.ORG/draft-07/schema#', type: 'object' }),
        'UNKNOWN_DIALECT',
      ],
      ['number', tool('a', { $schema: 7, type: 'object' }), 'UNKNOWN_DIALECT'],
      ['null', tool('a', { $schema: null, type: 'object' }), 'UNKNOWN_DIALECT'],
      [
        'draft-04 output',
        tool('a', OBJECT, { outputSchema: { $schema: DRAFT_04, type: 'object' } }),
        'UNKNOWN_DIALECT',
      ],
    ]);
  });

  it('refuses an embedded resource of another dialect, accepts one of the same dialect', () => {
    const embedded = (uri: string) =>
      tool('a', { type: 'object', $defs: { x: { $id: 'https://example.com/x', $schema: uri, type: 'string' } } });
    expectEach([
      ['draft-07 inside 2020-12', embedded(DIALECT_DRAFT_07), 'UNKNOWN_DIALECT'],
      ['2020-12 inside 2020-12', embedded(`${DIALECT_2020_12}#`), 'ok'],
    ]);
  });

  it('follows the trust configuration: draft-07 alone refuses schemas without $schema', () => {
    const draft07Only = { ...DEFAULT_TRUST, acceptedDialects: [DIALECT_DRAFT_07] };
    expectEach(
      [
        ['absent', tool('a', OBJECT), 'UNKNOWN_DIALECT'],
        ['draft-07', tool('a', { $schema: DIALECT_DRAFT_07, type: 'object' }), 'ok'],
      ],
      draft07Only,
    );
    const draft04Listed = { ...DEFAULT_TRUST, acceptedDialects: [DIALECT_2020_12, DRAFT_04] };
    expectEach(
      [['draft-04 listed but not validatable', tool('a', { $schema: DRAFT_04, type: 'object' }), 'UNKNOWN_DIALECT']],
      draft04Listed,
    );
  });
});

describe('$ref closure', () => {
  it('accepts references that resolve inside the descriptor, recursion included', () => {
    const linkedList = {
      type: 'object',
      $defs: { node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/node' } } } },
      properties: { head: { $ref: '#/$defs/node' } },
    };
    expectEach([
      ['$defs + $ref + recursion (2020-12)', tool('a', linkedList), 'ok'],
      ['recursion to the root', tool('a', { type: 'object', properties: { child: { $ref: '#' } } }), 'ok'],
      [
        'recursion to the root (draft-07)',
        tool('a', { $schema: DIALECT_DRAFT_07, type: 'object', properties: { child: { $ref: '#' } } }),
        'ok',
      ],
      [
        'definitions (draft-07)',
        tool('a', {
          $schema: DIALECT_DRAFT_07,
          type: 'object',
          definitions: { w: { type: 'string' } },
          properties: { a: { $ref: '#/definitions/w' } },
        }),
        'ok',
      ],
      [
        '$defs under draft-07 (pointer into the same root)',
        tool('a', {
          $schema: DIALECT_DRAFT_07,
          type: 'object',
          $defs: { w: { type: 'string' } },
          properties: { a: { $ref: '#/$defs/w' } },
        }),
        'ok',
      ],
      [
        'escaped pointer tokens',
        tool('a', {
          type: 'object',
          $defs: { 'a/b': { type: 'string' }, 'c d': { type: 'number' } },
          properties: { x: { $ref: '#/$defs/a~1b' }, y: { $ref: '#/$defs/c%20d' } },
        }),
        'ok',
      ],
      [
        '$anchor',
        tool('a', {
          type: 'object',
          $defs: { s: { $anchor: 'street', type: 'string' } },
          properties: { a: { $ref: '#street' } },
        }),
        'ok',
      ],
      [
        '$dynamicRef to a $dynamicAnchor',
        tool('a', { type: 'object', $dynamicAnchor: 'node', properties: { child: { $dynamicRef: '#node' } } }),
        'ok',
      ],
      [
        '$id-relative sub-schema',
        tool('a', {
          $id: 'https://example.com/root.json',
          type: 'object',
          $defs: { item: { $id: 'item.json', type: 'string' } },
          properties: { a: { $ref: 'item.json' } },
        }),
        'ok',
      ],
      [
        'absolute URI of its own root',
        tool('a', {
          $id: 'https://example.com/root.json',
          type: 'object',
          $defs: { w: { type: 'string' } },
          properties: { a: { $ref: 'https://example.com/root.json#/$defs/w' } },
        }),
        'ok',
      ],
      [
        'urn declared locally',
        tool('a', {
          type: 'object',
          $defs: { x: { $id: 'urn:catsim:x', type: 'string' } },
          properties: { a: { $ref: 'urn:catsim:x' } },
        }),
        'ok',
      ],
      [
        '"$ref" inside enum and default is data',
        tool('a', {
          type: 'object',
          properties: { a: { enum: [{ $ref: 'https://example.com/s.json' }], default: { $ref: '#/nowhere' } } },
        }),
        'ok',
      ],
    ]);
  });

  it('refuses references that leave the descriptor as REMOTE_REF', () => {
    expectEach([
      ['https', tool('a', { $ref: 'https://example.com/s.json', type: 'object' }), 'REMOTE_REF'],
      [
        'https in a property',
        tool('a', { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } }),
        'REMOTE_REF',
      ],
      [
        'http with pointer',
        tool('a', { type: 'object', properties: { a: { $ref: 'http://example.com/s.json#/$defs/a' } } }),
        'REMOTE_REF',
      ],
      ['file', tool('a', { type: 'object', properties: { a: { $ref: 'file:///etc/passwd' } } }), 'REMOTE_REF'],
      [
        'urn not declared',
        tool('a', { type: 'object', properties: { a: { $ref: 'urn:catsim:elsewhere' } } }),
        'REMOTE_REF',
      ],
      [
        'network-path reference',
        tool('a', { type: 'object', properties: { a: { $ref: '//evil.example/s.json' } } }),
        'REMOTE_REF',
      ],
      [
        'relative under an https $id',
        tool('a', { $id: 'https://example.com/root.json', type: 'object', properties: { a: { $ref: 'other.json' } } }),
        'REMOTE_REF',
      ],
      [
        'in an unknown keyword',
        tool('a', { type: 'object', 'x-extra': { $ref: 'https://example.com/s.json' } }),
        'REMOTE_REF',
      ],
      [
        'remote in outputSchema',
        tool('a', OBJECT, {
          outputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/o.json' } } },
        }),
        'REMOTE_REF',
      ],
    ]);
  });

  it('refuses local references that point nowhere as UNRESOLVED_REF', () => {
    expectEach([
      [
        '#/$defs/missing',
        tool('a', { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }),
        'UNRESOLVED_REF',
      ],
      ['missing anchor', tool('a', { type: 'object', properties: { a: { $ref: '#nowhere' } } }), 'UNRESOLVED_REF'],
      [
        'missing $dynamicAnchor',
        tool('a', { type: 'object', properties: { a: { $dynamicRef: '#nowhere' } } }),
        'UNRESOLVED_REF',
      ],
      [
        'relative document without $id',
        tool('a', { type: 'object', properties: { a: { $ref: 'other.json' } } }),
        'UNRESOLVED_REF',
      ],
      ['pointer past a leaf', tool('a', { type: 'object', properties: { a: { $ref: '#/type/x' } } }), 'UNRESOLVED_REF'],
      [
        'prototype property',
        tool('a', { type: 'object', properties: { a: { $ref: '#/constructor' } } }),
        'UNRESOLVED_REF',
      ],
      [
        'array length',
        tool('a', { type: 'object', allOf: [{}], properties: { a: { $ref: '#/allOf/length' } } }),
        'UNRESOLVED_REF',
      ],
      [
        'bad percent-encoding',
        tool('a', { type: 'object', properties: { a: { $ref: '#/%E0%A4%A' } } }),
        'UNRESOLVED_REF',
      ],
      [
        'own root, missing pointer',
        tool('a', {
          $id: 'https://example.com/root.json',
          type: 'object',
          properties: { a: { $ref: 'https://example.com/root.json#/$defs/no' } },
        }),
        'UNRESOLVED_REF',
      ],
      // ajv does not collect anchors inside prefixItems, so it cannot compile this: its MissingRefError is classified.
      [
        'anchor ajv cannot see',
        tool('a', {
          type: 'object',
          properties: {
            p: { type: 'array', prefixItems: [{ $anchor: 'first', type: 'string' }] },
            a: { $ref: '#first' },
          },
        }),
        'UNRESOLVED_REF',
      ],
    ]);
  });

  it('never touches the network: no loadSchema on any ajv instance, no fetch, no http(s) request', () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const requestSpies = [
      vi.spyOn(http, 'request'),
      vi.spyOn(http, 'get'),
      vi.spyOn(https, 'request'),
      vi.spyOn(https, 'get'),
    ];
    MEMOS.verdicts.clear();
    const remote = [
      tool('r1', { $ref: 'https://example.com/s.json', type: 'object' }),
      // Only ajv sees this one (the index finds the anchor): ajv must throw, not fetch.
      tool('r2', {
        $id: 'https://example.com/r.json',
        type: 'object',
        properties: { p: { type: 'array', prefixItems: [{ $anchor: 'a', type: 'string' }] }, a: { $ref: '#a' } },
      }),
    ];
    expect(verdicts(remote, DEFAULT_TRUST, MEMOS)).toEqual(['REMOTE_REF', 'UNRESOLVED_REF']);
    expect(fetchSpy).not.toHaveBeenCalled();
    for (const spy of requestSpies) expect(spy).not.toHaveBeenCalled();
    for (const dialect of ['2020-12', 'draft-07'] as const)
      expect(MEMOS.schemas.ajvFor(dialect, DEFAULT_TRUST).opts.loadSchema).toBeUndefined();
  });
});

describe('roots, sizes and depths', () => {
  it('requires object roots for inputSchema and a present outputSchema', () => {
    expectEach([
      ['array root', tool('a', { type: 'array' }), 'NON_OBJECT_ROOT'],
      ['no type', tool('a', { properties: {} }), 'NON_OBJECT_ROOT'],
      ['type list', tool('a', { type: ['object', 'null'] }), 'NON_OBJECT_ROOT'],
      ['boolean schema', tool('a', true), 'NON_OBJECT_ROOT'],
      ['null', tool('a', null), 'NON_OBJECT_ROOT'],
      ['absent inputSchema', { name: 'a' }, 'NON_OBJECT_ROOT'],
      ['outputSchema array root', tool('a', OBJECT, { outputSchema: { type: 'array' } }), 'NON_OBJECT_ROOT'],
      ['outputSchema not an object', tool('a', OBJECT, { outputSchema: 'object' }), 'NON_OBJECT_ROOT'],
      [
        'outputSchema object',
        tool('a', OBJECT, { outputSchema: { type: 'object', properties: { n: { type: 'number' } } } }),
        'ok',
      ],
    ]);
  });

  it('refuses a descriptor over descriptorBytesMax, counted in UTF-8 bytes of compact JSON', () => {
    const described = tool('a', OBJECT, { description: 'é'.repeat(100) });
    const bytes = Buffer.byteLength(JSON.stringify(described), 'utf8');
    expectEach([['exactly at the limit', described, 'ok']], { ...DEFAULT_TRUST, descriptorBytesMax: bytes });
    expectEach([['one byte over', described, 'OVERSIZED_DESCRIPTOR']], {
      ...DEFAULT_TRUST,
      descriptorBytesMax: bytes - 1,
    });
    expectEach([
      ['70,000-character description', tool('a', OBJECT, { description: 'x'.repeat(70_000) }), 'OVERSIZED_DESCRIPTOR'],
    ]);
  });

  it('refuses schemas nested deeper than schemaDepthMax (32 by default)', () => {
    expectEach([
      ['32 deep', tool('a', schemaOfDepth(32)), 'ok'],
      ['33 deep', tool('a', schemaOfDepth(33)), 'SCHEMA_TOO_DEEP'],
      ['40 deep', tool('a', schemaOfDepth(40)), 'SCHEMA_TOO_DEEP'],
      ['40 deep outputSchema', tool('a', OBJECT, { outputSchema: schemaOfDepth(40) }), 'SCHEMA_TOO_DEEP'],
      ['deep annotations do not count', tool('a', OBJECT, { _meta: schemaOfDepth(40) }), 'ok'],
    ]);
  });

  it('never throws on nesting deeper than the stack, whichever limit catches it', () => {
    const deep = tool('a', schemaOfDepth(30_000));
    // No digest: JCS itself would overflow the stack on this input, and the memo is bypassed.
    expect(checkTools([deep], [], DEFAULT_TRUST, MEMOS)).toEqual(['OVERSIZED_DESCRIPTOR']);
    expect(checkTools([deep], [], { ...DEFAULT_TRUST, descriptorBytesMax: 10_000_000 }, MEMOS)).toEqual([
      'SCHEMA_TOO_DEEP',
    ]);
  });
});

describe('schema validity under the pinned dialect (ajv, validateSchema)', () => {
  it('refuses what ajv cannot compile as INVALID_SCHEMA', () => {
    expectEach([
      ['{"type": 12} in a property', tool('a', { type: 'object', properties: { a: { type: 12 } } }), 'INVALID_SCHEMA'],
      ['required not an array', tool('a', { type: 'object', required: 'a' }), 'INVALID_SCHEMA'],
      [
        'bad pattern',
        tool('a', { type: 'object', properties: { a: { type: 'string', pattern: '(' } } }),
        'INVALID_SCHEMA',
      ],
      [
        'draft-07 meta-schema rules',
        tool('a', { $schema: DIALECT_DRAFT_07, type: 'object', minProperties: -1 }),
        'INVALID_SCHEMA',
      ],
      // ajv's URI library rejects a URN without a namespace-specific string (RFC 8141 needs urn:NID:NSS).
      ['$id urn:x', tool('a', { $id: 'urn:x', type: 'object' }), 'INVALID_SCHEMA'],
      [
        'invalid outputSchema',
        tool('a', OBJECT, { outputSchema: { type: 'object', properties: { a: { type: 12 } } } }),
        'INVALID_SCHEMA',
      ],
    ]);
  });

  it('keeps the ajv instances clean: a schema claiming a meta-schema $id does not break the next tools', () => {
    // One set of memos for both: the next tools compile on the instances the hijack compiled on.
    MEMOS.verdicts.clear();
    const hijack = tool('a', {
      $schema: DIALECT_DRAFT_07,
      $id: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
    });
    expect(verdicts([hijack], DEFAULT_TRUST, MEMOS)).toEqual(['ok']);
    MEMOS.verdicts.clear();
    expect(verdicts(REFERENCE_TOOLS.memory, DEFAULT_TRUST, MEMOS)).toEqual(Array(9).fill('ok'));
  });
});

describe('descriptor shape and names', () => {
  it('refuses malformed descriptors', () => {
    expectEach([
      ['null', null, 'MALFORMED_DESCRIPTOR'],
      ['array', [], 'MALFORMED_DESCRIPTOR'],
      ['string', 'read_file', 'MALFORMED_DESCRIPTOR'],
      ['no name', { inputSchema: OBJECT }, 'MALFORMED_DESCRIPTOR'],
      ['numeric name', { name: 5, inputSchema: OBJECT }, 'MALFORMED_DESCRIPTOR'],
      ['numeric description', tool('a', OBJECT, { description: 5 }), 'MALFORMED_DESCRIPTOR'],
      ['annotations not an object', tool('a', OBJECT, { annotations: [] }), 'MALFORMED_DESCRIPTOR'],
      ['icons not an array', tool('a', OBJECT, { icons: {} }), 'MALFORMED_DESCRIPTOR'],
    ]);
    // Values with no JSON form cannot reach JCS either, so these are checked without a digest.
    expect(
      checkTools(
        [tool('a', { type: 'object', default: undefined }), tool('b', { type: 'object', maximum: 10n })],
        [],
        DEFAULT_TRUST,
        MEMOS,
      ),
    ).toEqual(['MALFORMED_DESCRIPTOR', 'MALFORMED_DESCRIPTOR']);
  });

  it('applies the protocol tool-name rule', () => {
    expectEach([
      ['space', tool('read file', OBJECT), 'BAD_NAME'],
      ['comma', tool('a,b', OBJECT), 'BAD_NAME'],
      ['slash', tool('admin/tools', OBJECT), 'BAD_NAME'],
      ['empty', tool('', OBJECT), 'BAD_NAME'],
      ['129 characters', tool('a'.repeat(129), OBJECT), 'BAD_NAME'],
      ['128 characters', tool('a'.repeat(128), OBJECT), 'ok'],
      ['dots, dashes, digits', tool('admin.tools-list_v2', OBJECT), 'ok'],
    ]);
  });
});

describe('duplicate names', () => {
  const first = tool('get_user', { type: 'object', properties: { id: { type: 'string' } } });
  const other = tool('get_user', { type: 'object', properties: { id: { type: 'number' } } });

  it('quarantines both tools of a name with different schemas', () => {
    expect(verdicts([first, other])).toEqual(['DUPLICATE_NAME', 'DUPLICATE_NAME']);
  });

  it('keeps the first of exact copies', () => {
    expect(verdicts([first, structuredClone(first), structuredClone(first)])).toEqual([
      'ok',
      'DUPLICATE_NAME',
      'DUPLICATE_NAME',
    ]);
  });

  it('compares names after normalisation (case, - and _)', () => {
    expect(verdicts([first, tool('Get-User', first.inputSchema), tool('get_users', OBJECT)])).toEqual([
      'DUPLICATE_NAME',
      'DUPLICATE_NAME',
      'ok',
    ]);
  });

  it('leaves a tool that already failed with its first reason', () => {
    expect(verdicts([first, tool('GET-USER', { $schema: DRAFT_04, type: 'object' })])).toEqual([
      'DUPLICATE_NAME',
      'UNKNOWN_DIALECT',
    ]);
  });
});

describe('order of checks: the first failing one wins', () => {
  it('reports the earliest of several failures', () => {
    const oversizedDeep = tool('a', schemaOfDepth(40), { description: 'x'.repeat(70_000) });
    expectEach([
      ['malformed before bad name', { name: 'a b', inputSchema: OBJECT, title: 3 }, 'MALFORMED_DESCRIPTOR'],
      ['bad name before oversized', tool('a b', OBJECT, { description: 'x'.repeat(70_000) }), 'BAD_NAME'],
      ['oversized before too deep', oversizedDeep, 'OVERSIZED_DESCRIPTOR'],
      ['too deep before non-object root', tool('a', { ...schemaOfDepth(40), type: 'array' }), 'SCHEMA_TOO_DEEP'],
      ['non-object root before unknown dialect', tool('a', { $schema: DRAFT_04, type: 'array' }), 'NON_OBJECT_ROOT'],
      [
        'unknown dialect before remote ref',
        tool('a', { $schema: DRAFT_04, type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } }),
        'UNKNOWN_DIALECT',
      ],
      [
        'remote before unresolved',
        tool('a', {
          type: 'object',
          properties: { a: { $ref: '#/missing' }, b: { $ref: 'https://example.com/s.json' } },
        }),
        'REMOTE_REF',
      ],
      [
        'unresolved before invalid',
        tool('a', { type: 'object', properties: { a: { $ref: '#/missing' }, b: { type: 12 } } }),
        'UNRESOLVED_REF',
      ],
      [
        'output remote before input invalid',
        tool(
          'a',
          { type: 'object', properties: { b: { type: 12 } } },
          { outputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/o.json' } } } },
        ),
        'REMOTE_REF',
      ],
      [
        'input dialect before output root',
        tool('a', { $schema: DRAFT_04, type: 'object' }, { outputSchema: { type: 'array' } }),
        'NON_OBJECT_ROOT',
      ],
    ]);
  });
});

describe('verdict memo', () => {
  it('is bounded: two generations at most, the older one forgotten when the young one fills', () => {
    MEMOS.verdicts.clear();
    const generation = MEMOS.verdicts.generationMax;
    const tools = Array.from({ length: 2 * generation + 5 }, (_, index) => tool(`bad name ${index}`, OBJECT));
    const digests = tools.map((_, index) => `digest-${index}`);
    expect(new Set(checkTools(tools, digests, DEFAULT_TRUST, MEMOS))).toEqual(new Set(['BAD_NAME']));
    // The first generation was dropped; the second is old, 5 entries are young.
    expect(MEMOS.verdicts.size).toBe(generation + 5);
  });

  it('is keyed by trust digest as well: another trust configuration gets its own verdict', () => {
    const absent = tool('a', OBJECT);
    expect(verdicts([absent])).toEqual(['ok']);
    expect(verdicts([absent], { ...DEFAULT_TRUST, acceptedDialects: [DIALECT_DRAFT_07] })).toEqual(['UNKNOWN_DIALECT']);
    expect(verdicts([absent])).toEqual(['ok']);
  });
});
