/** The schema name every `catsim.trace.v1` header carries; a reader refuses any other. */
export const TRACE_SCHEMA = 'catsim.trace.v1';
