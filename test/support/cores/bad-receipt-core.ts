/**
 * A core module for test/core-contract.test.ts: the reference core, except that the leaseId of
 * its first receipt is a number, an observation outside catsim.trace.v1. Selected with
 * `--core ./test/support/cores/bad-receipt-core.ts`, so the breach travels through a real worker
 * thread and the real command line.
 */
import { defineCore, type CoreObservation } from 'catsim';
import { referenceCore } from '../../../cores/reference.ts';

export default defineCore({
  name: 'bad-receipt',
  create: (env) => {
    let spoiled = false;
    const emit = (observation: CoreObservation): void => {
      if (observation.type !== 'receipt' || spoiled) return env.sink.emit(observation);
      spoiled = true;
      // Deliberately outside the contract's type: this is what the sink must refuse at run time.
      env.sink.emit({ ...observation, leaseId: 7 } as unknown as CoreObservation);
    };
    return referenceCore()({ ...env, sink: { emit } });
  },
});
