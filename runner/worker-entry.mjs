// Worker bootstrap: registers tsx so the TypeScript worker loads without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
