// What a host team writes against the public core API, type-checked by test/package.test.ts.
import { defineCore, type CoreAdapter, type CoreEnvironment, type CoreFactory, type CoreObservation } from 'catsim';

const seen: CoreObservation = { type: 'policy_seen', audience: 'acme.dev', epoch: 1, via: 'poll' };

const factory: CoreFactory = (env: CoreEnvironment): CoreAdapter => ({
  attach: () => env.sink.emit(seen),
  disclose: () => ({ ok: false, code: 'INCOMPLETE_DISCOVERY' }),
  call: async () => {},
  pushPolicy: () => {},
  stop: () => {},
});

export default defineCore({ name: 'typed', create: factory });

// @ts-expect-error an observation outside the trace contract (epoch is a number) does not type-check
const outside: CoreObservation = { type: 'policy_seen', audience: 'acme.dev', epoch: '1', via: 'poll' };
void outside;
