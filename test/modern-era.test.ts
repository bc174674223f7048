/**
 * The modern era (MCP 2026-07-28, issue 29) in the world: a modern-only session on the SDK v2
 * server package, and the era mix a scenario draws.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { generatePlan } from '../sim/plan/generate.ts';
import { loadScenario } from '../sim/plan/scenario.ts';
import { serveModernSession } from '../sim/server/modern-session.ts';

describe('a modern session on the SDK v2 server package', () => {
  function serve(): { client: Client; server: ReturnType<typeof serveModernSession>; clientEnd: InMemoryTransport } {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    const server = serveModernSession(serverEnd, 'catsim-s0', true, {
      listTools: (params) => ({ tools: [], ttlMs: 100, cacheScope: 'public', cursorSeen: params?.cursor ?? null }),
      callTool: () => ({ content: [] }),
    });
    return { client: new Client({ name: 't', version: '1' }), server, clientEnd };
  }

  it('refuses a legacy initialize with -32022, naming 2026-07-28', async () => {
    const { client, clientEnd } = serve();
    const refused = await client.connect(clientEnd).then(
      () => null,
      (error: { code?: number; data?: unknown }) => [error.code, error.data],
    );
    expect(refused).toEqual([-32022, { supported: ['2026-07-28'], requested: '2025-11-25' }]);
  });
});

describe('the era mix of a scenario', () => {
  it('draws nothing in the default scenario: its plans carry no era', () => {
    for (let round = 0; round < 20; round += 1)
      expect(generatePlan('1', round, loadScenario('default')).servers.some((server) => 'era' in server)).toBe(false);
  });

  it('draws each round of scenarios/modern.json from all legacy, all modern and mixed', () => {
    const mixes = new Set<string>();
    for (let round = 0; round < 30; round += 1) {
      const eras = generatePlan('1', round, loadScenario('modern')).servers.map((server) => server.era ?? 'legacy');
      const modern = eras.filter((era) => era === 'modern').length;
      mixes.add(modern === 0 ? 'legacy' : modern === eras.length ? 'modern' : 'mixed');
    }
    expect([...mixes].sort()).toEqual(['legacy', 'mixed', 'modern']);
  });
});
