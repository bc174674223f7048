/**
 * A core module for test/not-judged.test.ts: the reference core, whose `receipt_outcome`
 * observations lose their optional `output` (the check of a structured result against the output
 * schema of the version that ran, SPEC section 9), as a core that does not check results writes
 * them. Everything else is the reference core's, so its capability-versions campaigns have zero
 * violations and only the unchecked results (F33) decide the verdict: NOT JUDGED `results`.
 * Selected with `--core ./test/support/cores/no-output-check-core.ts`.
 */
import { defineCore, type CoreObservation } from 'catsim';
import { referenceCore } from '../../../cores/reference.ts';

/** The observation without `output` when it is a `receipt_outcome`. */
function withoutOutput(observation: CoreObservation): CoreObservation {
  if (observation.type !== 'receipt_outcome') return observation;
  const { output: _output, ...rest } = observation;
  return rest;
}

export default defineCore({
  name: 'no-output-check',
  create: (env) =>
    referenceCore()({ ...env, sink: { emit: (observation) => env.sink.emit(withoutOutput(observation)) } }),
});
