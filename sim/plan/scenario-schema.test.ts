import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAULT_IDS } from '../faults/index.ts';
import { SCENARIO_SCHEMA_PATH } from './scenario.ts';
import { SCENARIO_SCHEMA, scenarioSchemaText } from './scenario-schema.ts';

describe('scenario schema', () => {
  it('the committed scenarios/scenario.schema.json is the one built from the registry (run `npm run schema` after changing a fault)', () => {
    expect(readFileSync(SCENARIO_SCHEMA_PATH, 'utf8')).toBe(scenarioSchemaText());
  });

  it("lists exactly the registry's fault ids, in menu order", () => {
    expect(SCENARIO_SCHEMA.$defs.faultId.enum).toEqual(FAULT_IDS);
    expect(FAULT_IDS).toEqual([
      'F1',
      'F2',
      'F3',
      'F4',
      'F5',
      'F6',
      'F7',
      'F8',
      'F9',
      'F10',
      'F11',
      'F12',
      'F13',
      'F14',
      'F15',
      'F16',
      'F17',
      'F18',
      'F19',
      'F20',
      'F21',
      'F22',
      'F23',
    ]);
  });
});
