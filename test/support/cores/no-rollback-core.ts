/**
 * A core module for test/not-judged.test.ts: the reference core without two of its optional
 * capabilities, `rollback` (F19 triggers reach it `unsupported`) and `modelTurn` (F22's model turns
 * are not run). It keeps the tool-version ones the default scenario's F26 and F31 to F37 order
 * (`emergencyDisable`, `deprecate`, `alias`, `remove`, `attachBackup`). Everything it does implement is the reference core's, so its campaigns have zero
 * violations and only what it leaves out decides the verdict. Selected with
 * `--core ./test/support/cores/no-rollback-core.ts`.
 */
import { defineCore } from 'catsim';
import { referenceKeeping } from '../reference-keeping.ts';

export default defineCore({
  name: 'no-rollback',
  create: referenceKeeping(['createClient', 'emergencyDisable', 'deprecate', 'alias', 'remove', 'attachBackup']),
});
