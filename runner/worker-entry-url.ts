/**
 * The module a campaign worker thread starts from: when this module is the compiled JavaScript of
 * `dist/` (`npm run build`), the compiled worker beside it, which starts as fast as any module;
 * when it is the TypeScript source (tsx, vitest), a bootstrap that registers tsx first.
 */
export const WORKER_ENTRY = import.meta.url.endsWith('.js')
  ? new URL('./worker.js', import.meta.url)
  : new URL('./worker-entry.mjs', import.meta.url);
