/**
 * The testbed itself failed (exit code 3): a worker crashed, or a round threw something the
 * campaign machinery cannot explain.
 */

/** A worker or the campaign machinery itself failed (exit code 3). */
export class TestbedError extends Error {
  override readonly name = 'TestbedError';
}
