import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHarness, toolWith } from './admission/testing/host-harness.ts';
import { CatalogHost } from './host.ts';
import { CoreMemos, DEFAULT_MEMO_SIZES } from './memos.ts';
import { InMemoryRegistryStore } from './registry/store.ts';
import { DEFAULT_TRUST } from './validation/trust.ts';

/** Every ajv class inherits `compile` from ajv's core class: spying there counts all compiles. */
const AJV_CORE_PROTOTYPE = Object.getPrototypeOf(Ajv.prototype) as { compile: (...args: unknown[]) => unknown };

/** Two tools with different input schemas: the content checks compile each schema once. */
const TOOLS = [
  toolWith('read_doc', { path: { type: 'string' } }),
  toolWith('count', { n: { type: 'integer', minimum: 0 } }),
];

afterEach(() => {
  vi.restoreAllMocks();
});

/** The schema compiles a started harness (its first scan and publish) performs. */
async function compilesOfHarness(memos?: CoreMemos): Promise<number> {
  const compile = vi.spyOn(AJV_CORE_PROTOTYPE, 'compile');
  const harness = await startHarness({ tools: TOOLS, ...(memos === undefined ? {} : { memos }) });
  try {
    expect(harness.of('published')).toHaveLength(1);
    return compile.mock.calls.length;
  } finally {
    compile.mockRestore();
    await harness.close();
  }
}

describe("a host's memos (src/memos.ts): its own unless it is handed shared ones", () => {
  it('two hosts with their own memos share nothing: each compiles both schemas', async () => {
    expect(await compilesOfHarness()).toBe(2);
    expect(await compilesOfHarness()).toBe(2);
  });

  it('hosts handed the same memos (HostPorts.memos) compile a schema once between them', async () => {
    const shared = new CoreMemos();
    expect(await compilesOfHarness(shared)).toBe(2);
    expect(await compilesOfHarness(shared)).toBe(0);
  });

  it('takes its memos one way: config.memoSizes or ports.memos, not both', () => {
    const ports = {
      clock: { now: () => 0 },
      scheduler: { after: () => ({ cancel: () => undefined }) },
      random: { next: () => 0.5 },
      sink: { emit: () => undefined },
      store: new InMemoryRegistryStore(),
      memos: new CoreMemos(),
    };
    const config = {
      limits: { pageCountMax: 8, byteCountMax: 1_000_000, scanTimeoutMs: 1_000 },
      refresh: {
        refreshIntervalMs: 1_000,
        retryBackoffMsBase: 10,
        retryBackoffMsMax: 10,
        listChangedDelayMs: 10,
        generationTtlMs: 10_000,
      },
      trust: DEFAULT_TRUST,
    };
    expect(() => new CatalogHost(ports as never, { ...config, memoSizes: DEFAULT_MEMO_SIZES })).toThrow(
      new TypeError(
        'CatalogHost takes its memos one way: config.memoSizes (the host builds them) or ports.memos (shared with other hosts), not both',
      ),
    );
    const { memos: _, ...own } = ports;
    expect(
      () => new CatalogHost(own as never, { ...config, memoSizes: { descriptorEntries: 0, validatorEntries: 10 } }),
    ).toThrow(new RangeError('memoSizes.descriptorEntries must be a positive integer, got 0'));
    expect(
      () => new CatalogHost(own as never, { ...config, memoSizes: { descriptorEntries: 512, validatorEntries: 256 } }),
    ).not.toThrow();
  });
});

describe('CoreMemos sizes', () => {
  it('defaults to 16,384 descriptors and 1,000 validators a generation; canonical texts and argument validators get half', () => {
    const memos = new CoreMemos();
    expect(memos.sizes).toEqual({ descriptorEntries: 16_384, validatorEntries: 1_000 });
    expect(
      [memos.descriptorDigests, memos.pageDigests, memos.schemaDigests, memos.validation.verdicts].map(
        (memo) => memo.generationMax,
      ),
    ).toEqual([16_384, 16_384, 16_384, 16_384]);
    expect([
      memos.canonicalTexts.generationMax,
      memos.validation.schemas.entries,
      memos.validation.argumentValidators.generationMax,
      memos.pageRoots.generationMax,
    ]).toEqual([8_192, 1_000, 500, 1_024]);
  });

  it("resizes every memo in the same proportions (a campaign's 512 and 256), and refuses a size that is not a positive integer", () => {
    const memos = new CoreMemos();
    memos.resize({ descriptorEntries: 512, validatorEntries: 256 });
    expect(memos.sizes).toEqual({ descriptorEntries: 512, validatorEntries: 256 });
    expect([
      memos.descriptorDigests.generationMax,
      memos.canonicalTexts.generationMax,
      memos.validation.verdicts.generationMax,
      memos.validation.schemas.entries,
      memos.validation.argumentValidators.generationMax,
    ]).toEqual([512, 256, 512, 256, 128]);
    expect(() => memos.resize({ descriptorEntries: 512, validatorEntries: 1.5 })).toThrow(
      new RangeError('memoSizes.validatorEntries must be a positive integer, got 1.5'),
    );
    expect(memos.sizes).toEqual({ descriptorEntries: 512, validatorEntries: 256 });
  });
});
