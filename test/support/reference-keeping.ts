/**
 * The reference core with only some of its optional `catsim.core.v1` methods, for the tests that
 * show what a core without a capability is reported as (NOT JUDGED, an order written
 * `unsupported`). The reference adapter's methods live on its prototype, so a spread would copy
 * none of them: the required ones and each kept optional one are bound one by one.
 */
import type { CoreAdapter } from '../../contract/core-api.ts';
import { referenceCore } from '../../cores/reference.ts';
import type { CoreFactory } from '../../sim/guard/adapter.ts';

/** An optional method of {@link CoreAdapter} (docs/CORE-API.md), read off the interface. */
export type OptionalCoreMethod = {
  [K in keyof CoreAdapter]-?: undefined extends CoreAdapter[K] ? K : never;
}[keyof CoreAdapter];

/**
 * A factory of the reference core (`referenceCore()`) that has `attach`, `disclose`, `call`,
 * `pushPolicy` and `stop`, and of the optional methods only those in `kept` (each bound to the
 * reference adapter, so it behaves exactly as the reference's own). Raises nothing.
 */
export function referenceKeeping(kept: readonly OptionalCoreMethod[]): CoreFactory {
  return (env) => {
    const core = referenceCore()(env);
    const adapter: CoreAdapter = {
      attach: core.attach.bind(core),
      disclose: core.disclose.bind(core),
      call: core.call.bind(core),
      pushPolicy: core.pushPolicy.bind(core),
      stop: core.stop.bind(core),
    };
    const target = adapter as unknown as Record<OptionalCoreMethod, unknown>;
    for (const name of kept) {
      const method = core[name] as ((...args: never[]) => unknown) | undefined;
      if (method !== undefined) target[name] = method.bind(core);
    }
    return adapter;
  };
}
