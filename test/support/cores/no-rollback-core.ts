/**
 * A core module for test/not-judged.test.ts: the reference core without two of its optional
 * capabilities, `rollback` (F19 triggers reach it `unsupported`) and `modelTurn` (F22's model turns
 * are not run). It keeps the tool-version ones the default scenario's F26 and F31 to F36 order
 * (`emergencyDisable`, `deprecate`, `alias`, `remove`, `attachBackup`). Everything it does implement is the reference core's, so its campaigns have zero
 * violations and only what it leaves out decides the verdict. Selected with
 * `--core ./test/support/cores/no-rollback-core.ts`.
 */
import { defineCore, type CoreAdapter } from 'catsim';
import { referenceCore } from '../../../cores/reference.ts';

export default defineCore({
  name: 'no-rollback',
  create: (env) => {
    const core = referenceCore()(env);
    // The reference adapter's methods live on its prototype: bind the ones kept, one by one.
    const kept: CoreAdapter = {
      attach: core.attach.bind(core),
      disclose: core.disclose.bind(core),
      call: core.call.bind(core),
      pushPolicy: core.pushPolicy.bind(core),
      stop: core.stop.bind(core),
    };
    if (core.createClient !== undefined) kept.createClient = core.createClient.bind(core);
    if (core.emergencyDisable !== undefined) kept.emergencyDisable = core.emergencyDisable.bind(core);
    if (core.deprecate !== undefined) kept.deprecate = core.deprecate.bind(core);
    if (core.alias !== undefined) kept.alias = core.alias.bind(core);
    if (core.remove !== undefined) kept.remove = core.remove.bind(core);
    if (core.attachBackup !== undefined) kept.attachBackup = core.attachBackup.bind(core);
    return kept;
  },
});
