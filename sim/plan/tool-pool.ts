/**
 * The descriptor pool: realistic tool descriptors, reused across rounds (so ajv compiles hit the
 * cache), each with sample valid arguments for probe calls. Shapes follow what real servers
 * send: the reference servers' draft-07 `$schema`, nested objects, enums, arrays, `$defs`.
 */
import type { ToolDescriptor } from './types.ts';

/** A pool entry: the descriptor and arguments that satisfy its input schema. */
export interface PoolTool {
  descriptor: ToolDescriptor;
  sampleArgs: Record<string, unknown>;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function entry(
  name: string,
  description: string,
  properties: Record<string, unknown>,
  required: string[],
  sampleArgs: Record<string, unknown>,
  extra: ToolDescriptor = {},
): PoolTool {
  const inputSchema = { type: 'object', properties, required, additionalProperties: false, $schema: DRAFT_07 };
  return { descriptor: { name, description, inputSchema, ...extra }, sampleArgs };
}

const str = (description: string) => ({ type: 'string', description });
const int = (description: string, minimum = 0) => ({ type: 'integer', minimum, description });

/** The pool, in a fixed order (index = stable tool id). */
export const TOOL_POOL: readonly PoolTool[] = [
  entry(
    'read_file',
    'Read the complete contents of a file. Use with care on large files.',
    { path: str('Path of the file') },
    ['path'],
    { path: '/data/a.txt' },
    { annotations: { readOnlyHint: true } },
  ),
  entry(
    'write_file',
    'Create a new file or overwrite an existing one.',
    { path: str('Path'), content: str('New content') },
    ['path', 'content'],
    { path: '/data/b.txt', content: 'x' },
    { annotations: { destructiveHint: true } },
  ),
  entry(
    'list_directory',
    'List the entries of a directory.',
    { path: str('Directory') },
    ['path'],
    { path: '/data' },
    { annotations: { readOnlyHint: true } },
  ),
  entry(
    'search_files',
    'Recursively search for files matching a pattern.',
    {
      path: str('Root'),
      pattern: str('Glob pattern'),
      excludePatterns: { type: 'array', items: { type: 'string' }, default: [] },
    },
    ['path', 'pattern'],
    { path: '/', pattern: '*.md' },
  ),
  entry(
    'move_file',
    'Move or rename a file.',
    { source: str('From'), destination: str('To') },
    ['source', 'destination'],
    { source: '/a', destination: '/b' },
  ),
  entry(
    'create_entities',
    'Create entities in the knowledge graph.',
    {
      entities: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: str('Name'),
            entityType: str('Type'),
            observations: { type: 'array', items: { type: 'string' } },
          },
          required: ['name', 'entityType', 'observations'],
        },
      },
    },
    ['entities'],
    { entities: [{ name: 'n', entityType: 't', observations: [] }] },
  ),
  entry(
    'search_nodes',
    'Search the knowledge graph.',
    { query: str('Query text') },
    ['query'],
    { query: 'alice' },
    { annotations: { readOnlyHint: true } },
  ),
  entry(
    'delete_entities',
    'Delete entities and their relations.',
    { entityNames: { type: 'array', items: { type: 'string' }, minItems: 1 } },
    ['entityNames'],
    { entityNames: ['n'] },
    { annotations: { destructiveHint: true } },
  ),
  entry(
    'get_weather',
    'Current weather for a city.',
    { city: str('City name'), units: { type: 'string', enum: ['metric', 'imperial'] } },
    ['city'],
    { city: 'Lyon', units: 'metric' },
  ),
  entry(
    'send_email',
    'Send an email on behalf of the user.',
    { to: { type: 'string', format: 'email' }, subject: str('Subject'), body: str('Body') },
    ['to', 'subject', 'body'],
    { to: 'a@example.com', subject: 's', body: 'b' },
  ),
  entry(
    'create_issue',
    'Open an issue in a repository.',
    {
      owner: str('Owner'),
      repo: str('Repository'),
      title: str('Title'),
      labels: { type: 'array', items: { type: 'string' } },
    },
    ['owner', 'repo', 'title'],
    { owner: 'o', repo: 'r', title: 't' },
  ),
  entry(
    'list_issues',
    'List issues of a repository.',
    {
      owner: str('Owner'),
      repo: str('Repository'),
      state: { type: 'string', enum: ['open', 'closed', 'all'] },
      perPage: int('Page size', 1),
    },
    ['owner', 'repo'],
    { owner: 'o', repo: 'r', state: 'open' },
    { annotations: { readOnlyHint: true } },
  ),
  entry(
    'merge_pull_request',
    'Merge a pull request.',
    {
      owner: str('Owner'),
      repo: str('Repository'),
      number: int('PR number', 1),
      method: { type: 'string', enum: ['merge', 'squash', 'rebase'] },
    },
    ['owner', 'repo', 'number'],
    { owner: 'o', repo: 'r', number: 7 },
  ),
  entry(
    'query_database',
    'Run a read-only SQL query.',
    { sql: str('SQL text'), limit: int('Row limit', 1) },
    ['sql'],
    { sql: 'select 1', limit: 10 },
    { annotations: { readOnlyHint: true } },
  ),
  entry('execute_statement', 'Execute a SQL statement that changes data.', { sql: str('SQL text') }, ['sql'], {
    sql: 'delete from t',
  }),
  entry(
    'book_room',
    'Reserve a meeting room.',
    { room: str('Room id'), start: { type: 'string', format: 'date-time' }, minutes: int('Duration', 15) },
    ['room', 'start', 'minutes'],
    { room: 'r1', start: '2026-01-01T10:00:00Z', minutes: 30 },
  ),
  entry('cancel_booking', 'Cancel a room reservation.', { bookingId: str('Booking id') }, ['bookingId'], {
    bookingId: 'b1',
  }),
  entry(
    'translate_text',
    'Translate text between languages.',
    { text: str('Text'), target: { type: 'string', pattern: '^[a-z]{2}$' } },
    ['text', 'target'],
    { text: 'hello', target: 'fr' },
  ),
  entry(
    'get_invoice',
    'Fetch an invoice by id.',
    { invoiceId: str('Invoice id') },
    ['invoiceId'],
    { invoiceId: 'inv-1' },
    { outputSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] } },
  ),
  entry(
    'refund_payment',
    'Refund a payment, fully or partially.',
    { paymentId: str('Payment id'), amount: { type: 'number', exclusiveMinimum: 0 } },
    ['paymentId'],
    { paymentId: 'p1', amount: 3.5 },
    { annotations: { destructiveHint: true, idempotentHint: false } },
  ),
  entry(
    'deploy_service',
    'Deploy a service version to an environment.',
    { service: str('Service'), version: str('Version'), env: { type: 'string', enum: ['staging', 'prod'] } },
    ['service', 'version', 'env'],
    { service: 's', version: '1.2.3', env: 'staging' },
  ),
  entry(
    'get_metrics',
    'Read metrics for a service over a window.',
    { service: str('Service'), window: { $ref: '#/$defs/window' } },
    ['service'],
    { service: 's', window: { minutes: 5 } },
    {},
  ),
  entry(
    'echo',
    'Echoes back the input.',
    { message: str('Message to echo') },
    ['message'],
    { message: 'hi' },
    { annotations: { readOnlyHint: true } },
  ),
  entry(
    'get-sum',
    'Returns the sum of two numbers.',
    { a: { type: 'number' }, b: { type: 'number' } },
    ['a', 'b'],
    { a: 1, b: 2 },
    { annotations: { readOnlyHint: true } },
  ),
];

// get_metrics uses a local `$ref`; its `$defs` live in the same schema (recursion-free closure).
((TOOL_POOL[21] as PoolTool).descriptor.inputSchema as Record<string, unknown>).$defs = {
  window: { type: 'object', properties: { minutes: { type: 'integer', minimum: 1 } }, required: ['minutes'] },
};
