/**
 * Temporary directories for tests, under os.tmpdir(), removed after each test, and other
 * after-test cleanups (stores to close). Not part of the library.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** Runs `cleanup` after the current test (last registered, first run). */
export function afterThisTest(cleanup: () => void): void {
  cleanups.push(cleanup);
}

/** A fresh directory under os.tmpdir(), removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'catsim-store-'));
  afterThisTest(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
