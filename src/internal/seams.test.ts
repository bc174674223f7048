import { describe, expect, it } from 'vitest';
import { startHarness, toolWith } from '../admission/testing/host-harness.ts';
import { Walk } from '../discovery/scan.ts';
import type { HostConfig } from '../host.ts';

/** A walk with the final recheck removed, as the no-final-recheck mutant has it. */
class NoRecheckWalk extends Walk {
  protected override async finalRecheck(): Promise<void> {}
}

describe("the mutants' seams are not host configuration", () => {
  it('HostConfig has no field that replaces a part of the core (a type error)', () => {
    const config: Partial<HostConfig> = {
      // @ts-expect-error walk is an internal seam (src/internal/seams.ts), not configuration.
      walk: NoRecheckWalk,
    };
    expect(Object.keys(config)).toEqual(['walk']);
  });

  it('a walk smuggled into the config is ignored: the host still rechecks page 1 before publishing', async () => {
    const config = { walk: NoRecheckWalk } as Partial<HostConfig>;
    const h = await startHarness({ tools: [toolWith('read')], config });
    try {
      // Page 1, then page 1 again: the final recheck of SPEC section 3.
      expect(h.pair.requests).toEqual([undefined, undefined]);
      expect(h.of('published')).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});
