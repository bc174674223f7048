/** Coverage probe `defect-quarantined`: a planted defective tool published with a quarantine verdict. */
import type { Probe } from './probe.ts';

/** A published snapshot holds a tool whose content-check verdict is not `ok`. */
export const defectQuarantined: Probe = {
  name: 'defect-quarantined',
  basis: 'reference',
  description: 'a planted defective tool published with a quarantine verdict',
  hit: (events) => events.some((e) => e.type === 'published' && e.tools.some((tool) => tool.verdict !== 'ok')),
};
