import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROBES } from '../../oracle/probes/index.ts';
import { ALL_FAULTS, CORE_ONLY_PROBES, FAULT_IDS, FAULTS, probesOfAbsentFaults, SCENARIO_FAULTS } from './index.ts';

const FAULTS_DIR = dirname(fileURLToPath(import.meta.url));

describe('the fault registry', () => {
  it('lists F1..Fn in menu order, with no gap, then equivocation and the protocol eras, each id once', () => {
    // n is the number of fault files (the next test): adding a fault is its file and its line.
    expect(FAULT_IDS.length).toBeGreaterThanOrEqual(34);
    // F35 is reserved for the branch remove30 (built beside this one); the merge drops this filter.
    const reserved = ['F35'];
    expect(FAULT_IDS).toEqual(
      Array.from({ length: FAULT_IDS.length + reserved.length }, (_, i) => `F${i + 1}`).filter(
        (id) => !reserved.includes(id),
      ),
    );
    expect(SCENARIO_FAULTS.map((fault) => fault.id)).toEqual(['EQUIV', 'ERA']);
    expect(new Set(ALL_FAULTS.map((fault) => fault.id)).size).toBe(ALL_FAULTS.length);
  });

  it('holds one file per fault, fNN-NAME.ts numbered like its id (a new file needs its registry line)', async () => {
    const files = readdirSync(FAULTS_DIR)
      .filter((name) => /^f\d\d-.+\.ts$/.test(name) && !name.endsWith('.test.ts'))
      .sort();
    expect(files).toHaveLength(FAULTS.length);
    for (const [index, file] of files.entries()) {
      const exported = Object.values((await import(`./${file}`)) as Record<string, unknown>);
      expect(exported, file).toContain(FAULTS[index]);
      expect(FAULTS[index]?.id, file).toBe(`F${Number(file.slice(1, 3))}`);
    }
  });
});

describe('the registry and the coverage probes (oracle/probes)', () => {
  const probeNames = PROBES.map((probe) => probe.name);

  it('names only probes that exist', () => {
    for (const fault of ALL_FAULTS)
      for (const name of fault.probes) expect(probeNames, `${fault.id} names ${name}`).toContain(name);
    for (const name of CORE_ONLY_PROBES) expect(probeNames, name).toContain(name);
  });

  it('names every probe: by some fault, or as a core-only probe (never both)', () => {
    const named = new Set(ALL_FAULTS.flatMap((fault) => fault.probes));
    expect(probeNames.filter((name) => !named.has(name) && !CORE_ONLY_PROBES.includes(name))).toEqual([]);
    expect(CORE_ONLY_PROBES.filter((name) => named.has(name))).toEqual([]);
    // The protocol eras (sim/faults/eras.ts) are no fault: an honest modern server has no defence of
    // the core to exercise; the faults of the new era name their own probes.
    expect(ALL_FAULTS.filter((fault) => fault.probes.length === 0).map((fault) => fault.id)).toEqual(['ERA']);
  });

  it('owes the probe gate every probe but those only faults outside the scenario name', () => {
    const withoutF18 = FAULT_IDS.filter((id) => id !== 'F18');
    expect([...probesOfAbsentFaults(withoutF18)]).toEqual([
      'host-restarted-mid-scan',
      'host-crashed-in-publish',
      'host-crashed-after-commit',
      'host-crashed-after-lease',
      'host-crashed-calls-in-flight',
    ]);
    expect([...probesOfAbsentFaults(FAULT_IDS)]).toEqual([]);
    // cursor-invalidated is F11's and F28's alone; equivocation-detected belongs to no menu fault and is always owed.
    expect(
      probesOfAbsentFaults(withoutF18.filter((id) => id !== 'F11' && id !== 'F28')).has('cursor-invalidated'),
    ).toBe(true);
    expect(probesOfAbsentFaults(withoutF18.filter((id) => id !== 'F11')).has('cursor-invalidated')).toBe(false);
    expect(probesOfAbsentFaults([]).has('equivocation-detected')).toBe(false);
  });
});
