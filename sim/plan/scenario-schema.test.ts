import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULT_IDS } from '../faults/index.ts';
import { SCENARIO_SCHEMA_PATH } from './scenario.ts';
import { SCENARIO_SCHEMA, scenarioSchemaText } from './scenario-schema.ts';

describe('scenario schema', () => {
  it('the committed scenarios/scenario.schema.json is the one built from the registry (run `npm run schema` after changing a fault)', () => {
    expect(readFileSync(SCENARIO_SCHEMA_PATH, 'utf8')).toBe(scenarioSchemaText());
  });

  it("lists exactly the registry's fault ids, in menu order (sim/faults/registry.test.ts checks them against the files)", () => {
    expect(SCENARIO_SCHEMA.$defs.faultId.enum).toEqual(FAULT_IDS);
  });
});
