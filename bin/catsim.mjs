#!/usr/bin/env node
// Entry point: loads the TypeScript CLI through tsx's ESM loader, so no build step is needed.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
