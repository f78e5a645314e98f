import { mkdtempSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { ProviderServer } from '../../testing/providerServer';
import type { createProvider as CreateProvider } from '../../src/providers/createProvider';
import { configFor, firstTurn } from './helpers';
import { PLAN_ANSWER_NAME, PlanAnswerSchema } from '../../src/core/planning/planSchema';
import { plannerMessages } from '../../src/core/planning/plannerPrompt';
import { LONG, PLAN, noteArtifact, plannerInput } from '../core/planning/plannerFixtures';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

/*
 * Issue 30: the bundle swaps parts of LangChain and the SDKs (scripts/bundlePlugins.cjs: langsmith's
 * shim, the model profiles emptied, the SDK helpers LangChain never calls made to throw). jest runs
 * the sources, so here Strata's createProvider is bundled with those same build plugins and each
 * provider kind sends a turn, streamed, over real HTTP to the local provider server.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { bundlePlugins } = require('../../scripts/bundlePlugins.cjs') as { bundlePlugins: () => Plugin[] };

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

describe('the provider clients as the bundle carries them', () => {
  let dir: string;
  let createProvider: typeof CreateProvider;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bundled-clients-'));
    const outfile = path.join(dir, 'providers.js');
    await build({
      absWorkingDir: path.join(__dirname, '..', '..'),
      entryPoints: [path.join('src', 'providers', 'createProvider.ts')],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'es2022',
      minify: true,
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      logLevel: 'silent',
      outfile,
      plugins: bundlePlugins(),
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle just built
    ({ createProvider } = require(outfile) as { createProvider: typeof CreateProvider });
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['openai', 'openai-responses', 'openai-compatible', 'anthropic'] as const)('%s: a turn streams its reply over HTTP', async (kind) => {
    const provider = createProvider(configFor(server, kind), { getSecret: () => 'sk-test-key-abcdef', fetch });
    const deltas: string[] = [];
    const result = await provider.send({ messages: firstTurn('Hi'), onToken: (delta) => deltas.push(delta) });
    expect(result.text).toMatch(/Question: Hi\.$/);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(result.text);
    expect(server.requests.length).toBeGreaterThan(0);
  });

  it.each(['openai', 'openai-responses', 'anthropic'] as const)('%s: the planner\'s structured answer (a forced tool call) comes back as an object', async (kind) => {
    const provider = createProvider(configFor(server, kind), { getSecret: () => 'sk-test-key-abcdef', fetch });
    const messages = plannerMessages(plannerInput([noteArtifact(PLAN), noteArtifact(LONG)], { question: 'Vents?' }));
    const result = await provider.structured!({ messages, schema: PlanAnswerSchema, name: PLAN_ANSWER_NAME });
    expect(result).toMatchObject({ method: 'functionCalling' });
    expect(typeof result.value).toBe('object');
  });
});
