import { describe, expect, it } from 'vitest';
import { descriptorDigest, descriptorDigestOfText, pageDigest } from '../snapshot/digests.ts';
import { resultByteLength, toolTextsOf } from './page-source.ts';

// The tool texts a page source keeps must give exactly what stringifying again gives: the same
// byte count, the same page digest and the same descriptor digests.
const echo = {
  name: 'echo',
  description: 'Écho — ok.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
};
const add = { name: 'add', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };

describe('tool texts kept from a tools/list result', () => {
  it('counts the same bytes as the whole result stringified', () => {
    const result = { tools: [echo, add], nextCursor: 'c1', _meta: { 'dev.catsim/catalogRevision': 3 } };
    const texts = toolTextsOf(result.tools);
    expect(resultByteLength(result, texts)).toBe(Buffer.byteLength(JSON.stringify(result), 'utf8'));
    // 271 bytes: Python's json.dumps(result, separators=(',', ':'), ensure_ascii=False), UTF-8 (É 2 bytes, — 3).
    expect(resultByteLength(result, texts)).toBe(271);
    expect(resultByteLength({ tools: [] }, [])).toBe(Buffer.byteLength('{"tools":[]}', 'utf8'));
    expect(resultByteLength({ tools: [echo] }, toolTextsOf([echo]))).toBe(
      Buffer.byteLength(JSON.stringify({ tools: [echo] }), 'utf8'),
    );
  });

  it('writes null for a tool with no JSON form, as inside an array', () => {
    expect(toolTextsOf([undefined, 1, 'x'])).toEqual(['null', '1', '"x"']);
  });

  it('gives the same page digest with and without the texts', () => {
    const page = { cursorIn: 'a', cursorOut: null, revision: 4, tools: [echo, add] };
    expect(pageDigest({ ...page, toolTexts: toolTextsOf(page.tools) })).toBe(pageDigest(page));
    const empty = { cursorIn: null, cursorOut: '', revision: 7, tools: [] };
    expect(pageDigest({ ...empty, toolTexts: [] })).toBe(
      'b2ce3ff5475049148c68cca3a0185383ef7a3c2cea66ff003abe749a041ce8b2',
    );
  });

  it('gives the same descriptor digest with and without the text', () => {
    expect(descriptorDigestOfText(echo, JSON.stringify(echo))).toBe(descriptorDigest(echo));
    expect(descriptorDigestOfText(7, '7')).toBe(descriptorDigest(7));
  });
});
