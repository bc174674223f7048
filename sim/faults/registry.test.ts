import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_FAULTS, FAULT_IDS, FAULTS, SCENARIO_FAULTS } from './index.ts';

const FAULTS_DIR = dirname(fileURLToPath(import.meta.url));

describe('the fault registry', () => {
  it('lists F1..F17 in menu order, then equivocation, each id once', () => {
    expect(FAULT_IDS).toEqual(Array.from({ length: 17 }, (_, i) => `F${i + 1}`));
    expect(SCENARIO_FAULTS.map((fault) => fault.id)).toEqual(['EQUIV']);
    expect(new Set(ALL_FAULTS.map((fault) => fault.id)).size).toBe(ALL_FAULTS.length);
  });

  it('holds one file per fault, fNN-NAME.ts numbered like its id (a new file needs its registry line)', async () => {
    const files = readdirSync(FAULTS_DIR).filter((name) => /^f\d\d-.+\.ts$/.test(name) && !name.endsWith('.test.ts')).sort();
    expect(files).toHaveLength(FAULTS.length);
    for (const [index, file] of files.entries()) {
      const exported = Object.values(await import(`./${file}`) as Record<string, unknown>);
      expect(exported, file).toContain(FAULTS[index]);
      expect(FAULTS[index]?.id, file).toBe(`F${Number(file.slice(1, 3))}`);
    }
  });

});
