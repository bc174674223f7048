/**
 * The driver against its contract (contract/driver/driver.schema.json): every step of every
 * shipped case, as handed out, is a valid Step; CATSIM_SERVERS of both transports is a valid
 * Servers; a result is taken only for the next step, and a disclosure becomes a `disclosure`
 * world event of the tools' descriptor digests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { loadCases } from './case.ts';
import { CaseWorld } from './case-world.ts';
import { Driver } from './driver.ts';
import { serversEnv } from './run-case.ts';

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'contract', 'driver', 'driver.schema.json'), 'utf8'),
) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: false });
ajv.addSchema(schema);
const valid = (def: string, value: unknown): boolean => ajv.validate(`${schema.$id as string}#/$defs/${def}`, value);

/** A world whose one server has an open session, so steps without a precondition are released at once. */
function opened(name: string): { world: CaseWorld; driver: Driver } {
  const spec = loadCases(name)[0]!;
  const world = new CaseWorld(spec, 'test');
  world.start();
  world.recorder.world('session_opened', { server: 'alpha', audience: 'acme.dev', identity: 'x' });
  return { world, driver: new Driver(spec, world) };
}

describe('catsim.driver.v1', () => {
  it('every step of every shipped case is a valid Step once its precondition holds', async () => {
    for (const spec of loadCases()) {
      const world = new CaseWorld(spec, 'test');
      world.start();
      for (const entry of world.entries())
        world.recorder.world('session_opened', { server: entry.server, audience: entry.audience, identity: 'x' });
      for (const server of spec.servers) {
        for (let i = 0; i < 3; i += 1)
          world.recorder.world('revision', { server: server.name, revision: 9, views: {} });
        // Six: notification-burst waits for two changes of three notifications each.
        for (let i = 0; i < 6; i += 1)
          world.recorder.world('notification_delivered', { server: server.name, audience: server.audience });
        for (let i = 0; i < 3; i += 1)
          world.recorder.world('disconnected', { server: server.name, audience: server.audience });
        for (let i = 0; i < 3; i += 1)
          world.recorder.world('page_served', {
            server: server.name,
            audience: server.audience,
            scanId: null,
            cursorIn: null,
            cursorOut: null,
            revision: 1,
            reported: 1,
            tools: [],
            pageDigest: 'x',
          });
      }
      const driver = new Driver(spec, world);
      for (let seq = 1; seq <= spec.steps.length; seq += 1) {
        const step = await driver.step(seq, 0, new AbortController().signal);
        expect([spec.name, seq, valid('Step', step)]).toEqual([spec.name, seq, true]);
        expect(driver.post({ seq, status: 'ok', ...(step?.kind === 'disclose' ? { tools: {} } : {}) })).toBeNull();
      }
    }
  });

  it('CATSIM_SERVERS is a valid Servers on both transports', () => {
    const { world } = opened('full-walk');
    for (const transport of ['http', 'stdio'] as const)
      expect(valid('Servers', serversEnv(world, { http: 4000, stdio: 4001 }, transport))).toBe(true);
  });

  it('holds a step until its precondition: the change-between-pages call waits for notification_delivered', async () => {
    const { world, driver } = opened('change-between-pages');
    expect(await driver.step(1, 30, new AbortController().signal)).toBeNull();
    world.recorder.world('notification_delivered', { server: 'alpha', audience: 'acme.dev' });
    expect(await driver.step(1, 30, new AbortController().signal)).toEqual({
      schema: 'catsim.driver.v1',
      seq: 1,
      kind: 'call',
      server: 'alpha',
      tool: 'export',
      arguments: {},
    });
  });

  it('takes a result only for the next step, and writes a disclosure as descriptor digests', async () => {
    const { world, driver } = opened('full-walk');
    await driver.step(1, 0, new AbortController().signal);
    expect(driver.post({ seq: 2, status: 'ok' })).toBe('result for step 2, expected step 1');
    expect(driver.post({ seq: 1, status: 'maybe' })).toBe('status must be ok, error, refused or unsupported');
    expect(driver.post({ seq: 1, status: 'ok' })).toBe('a disclose result needs tools: {server: [names]}');
    expect(driver.post({ seq: 1, status: 'ok', tools: { beta: [] } })).toBe(
      'tools names "beta", which is not a server of this case',
    );
    expect(driver.post({ seq: 1, status: 'ok', tools: { alpha: ['search', 'nope'] } })).toBeNull();
    const disclosure = world.recorder.events.at(-1) as unknown as { type: string; tools: string[] };
    const revision = world.recorder.events.find((event) => event.type === 'revision') as unknown as {
      views: Record<string, Array<{ name: string; digest: string }>>;
    };
    expect(disclosure.type).toBe('disclosure');
    expect(disclosure.tools[0]).toBe(revision.views['acme.dev']?.[0]?.digest);
    expect(disclosure.tools[1]).not.toBe(revision.views['acme.dev']?.[1]?.digest);
  });
});

describe('scenarios/cases/case.schema.json', () => {
  const caseSchema = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'scenarios', 'cases', 'case.schema.json'), 'utf8'),
  ) as Record<string, unknown>;
  const check = new Ajv2020({ strict: false }).compile(caseSchema);

  it('every shipped case is valid, and one with an unknown trigger is not', () => {
    for (const spec of loadCases()) expect([spec.name, check(spec)]).toEqual([spec.name, true]);
    const bad = { ...loadCases('full-walk')[0], triggers: [{ server: 'alpha', walk: 1, page: 1, do: 'explode' }] };
    expect(check(bad)).toBe(false);
  });
});
