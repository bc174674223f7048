/**
 * `npm run schema`: writes `scenarios/scenario.schema.json` from sim/plan/scenario-schema.ts (the
 * schema is built from the fault registry; the file is its copy for editors and readers).
 */
import { writeFileSync } from 'node:fs';
import { SCENARIO_SCHEMA_PATH } from '../sim/plan/scenario.ts';
import { scenarioSchemaText } from '../sim/plan/scenario-schema.ts';

writeFileSync(SCENARIO_SCHEMA_PATH, scenarioSchemaText());
process.stdout.write(`wrote ${SCENARIO_SCHEMA_PATH}\n`);
