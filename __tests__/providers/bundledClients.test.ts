import { mkdtempSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { ProviderServer } from '../../testing/providerServer';
import { createProvider as sourceCreateProvider } from '../../src/providers/createProvider';
import type { ChatResult } from '../../src/core/ports/chatModel';
import type { ToolSpec } from '../../src/core/agent/types';
import type { ChatMessage } from '../../src/core/engine/messages';
import { ProviderError } from '../../src/providers/errors';
import { configFor, firstTurn, recordingSleep } from './helpers';
import { PLAN_ANSWER_NAME, PlanAnswerSchema } from '../../src/core/planning/planSchema';
import { plannerMessages } from '../../src/core/planning/plannerPrompt';
import { LONG, PLAN, noteArtifact, plannerInput } from '../core/planning/plannerFixtures';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

/*
 * Issue 30: the bundle swaps parts of LangChain and the SDKs (scripts/bundlePlugins.cjs: langsmith's
 * shim, the model profiles emptied, the SDKs' unused resources and helpers made empty or throwing,
 * scripts/unusedSdkModules.cjs). jest runs the sources, so here Strata's createProvider is bundled
 * with those same build plugins and each provider kind sends turns over real HTTP to the local
 * provider server: streamed and not, with tools, structured, and failing.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { bundlePlugins } = require('../../scripts/bundlePlugins.cjs') as { bundlePlugins: () => Plugin[] };

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

describe('the provider clients as the bundle carries them', () => {
  let dir: string;
  let createProvider: typeof sourceCreateProvider;

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
    ({ createProvider } = require(outfile) as { createProvider: typeof sourceCreateProvider });
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['openai', 'openai-responses', 'openai-compatible', 'anthropic', 'gemini'] as const)('%s: a turn streams its reply over HTTP', async (kind) => {
    const provider = createProvider(configFor(server, kind), { getSecret: () => 'sk-test-key-abcdef', fetch });
    const deltas: string[] = [];
    const result = await provider.send({ messages: firstTurn('Hi'), onToken: (delta) => deltas.push(delta) });
    expect(result.text).toMatch(/Question: Hi\.$/);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(result.text);
    expect(server.requests.length).toBeGreaterThan(0);
  });

  const TOOLS: ToolSpec[] = [{ name: 'search_vault', description: 'Search the vault', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false } }];
  const AGENT_TURN: ChatMessage[] = [
    { role: 'system', content: 'You are Strata, a careful assistant for an Obsidian vault.' },
    { role: 'user', content: 'Find my tasks [[tool search_vault {"query":"tasks"}]]' },
  ];

  /** An agent turn (a tool call, its result, the answer) streamed, then a plain turn not streamed: the results and what went over the wire. */
  async function agentAndPlainTurns(make: typeof sourceCreateProvider, kind: (typeof KINDS)[number]): Promise<{ results: ChatResult[]; wire: unknown[] }> {
    server.reset();
    const provider = make(configFor(server, kind), { getSecret: () => 'sk-test-key-abcdef', fetch });
    const step1 = await provider.send({ messages: AGENT_TURN, tools: TOOLS, onToken: () => undefined });
    const calls = step1.toolCalls ?? [];
    const steps = [{ text: step1.text, calls, results: calls.map((c) => ({ callId: c.id, name: c.name, content: 'Tasks/Writing a task.md', isError: false })) }];
    const step2 = await provider.send({ messages: AGENT_TURN, tools: TOOLS, steps, onToken: () => undefined });
    const plain = await provider.send({ messages: firstTurn('Hi') });
    // Responses ids count on across the server's life: a session id is compared by its presence only.
    const results = [step1, step2, plain].map((r) => ({ ...r, ...(r.sessionId !== undefined ? { sessionId: 'a response id' } : {}) }));
    return { results, wire: server.requests.map((r) => ({ path: r.path, body: r.body as unknown })) };
  }

  const KINDS = ['openai', 'openai-responses', 'openai-compatible', 'anthropic', 'gemini'] as const;

  it.each(KINDS)('%s: a tool call, its result and a plain turn go over the wire byte for byte as from the sources', async (kind) => {
    const bundled = await agentAndPlainTurns(createProvider, kind);
    const source = await agentAndPlainTurns(sourceCreateProvider, kind);
    expect(bundled.results[0].toolCalls).toEqual([expect.objectContaining({ name: 'search_vault', args: { query: 'tasks' } })]);
    expect(bundled.results[1].toolCalls ?? []).toHaveLength(0);
    expect(bundled.results[2].text).toMatch(/Question: Hi\.$/);
    expect(bundled.wire.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(bundled.wire)).toBe(JSON.stringify(source.wire));
    expect(bundled.results).toEqual(source.results);
  });

  it.each(KINDS)('%s: a 429 is retried, and a server error once retries run out fails as from the sources', async (kind) => {
    const outcome = async (make: typeof sourceCreateProvider): Promise<unknown> => {
      server.reset();
      const { sleep, waits } = recordingSleep();
      const provider = make(configFor(server, kind), { getSecret: () => 'sk-test-key-abcdef', fetch, sleep });
      server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 3 });
      const retried = await provider.send({ messages: firstTurn('Hi'), onToken: () => undefined });
      server.injectFault({ kind: 'status', status: 500, times: 20 });
      const error = await provider.send({ messages: firstTurn('Hi') }).then(() => null, (e: unknown) => e);
      // The bundle has its own ProviderError class: the same fields, another constructor.
      expect(error).toBeInstanceOf(make === sourceCreateProvider ? ProviderError : Error);
      const { kind: errorKind, status, message } = error as ProviderError;
      return { text: retried.text, waits, errorKind, status, message };
    };
    const bundled = await outcome(createProvider);
    expect(bundled).toMatchObject({ text: expect.stringMatching(/Question: Hi\.$/) as unknown, waits: expect.arrayContaining([3000]) as unknown, status: 500 });
    expect(bundled).toEqual(await outcome(sourceCreateProvider));
  });

  describe('with LangChain tracing and verbose logging turned on in the environment (inert tracers in the bundle)', () => {
    const saved = { tracing: process.env.LANGSMITH_TRACING, verbose: process.env.LANGCHAIN_VERBOSE, fetch: globalThis.fetch };
    const fetched: string[] = [];
    beforeAll(() => {
      process.env.LANGSMITH_TRACING = 'true';
      process.env.LANGCHAIN_VERBOSE = 'true';
      globalThis.fetch = (input, init) => {
        fetched.push(input instanceof Request ? input.url : String(input));
        return saved.fetch(input, init);
      };
    });
    afterAll(() => {
      globalThis.fetch = saved.fetch;
      for (const [name, value] of [['LANGSMITH_TRACING', saved.tracing], ['LANGCHAIN_VERBOSE', saved.verbose]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it.each(KINDS)('%s: a tool call, its result and a plain turn work as without them, and only the provider is called', async (kind) => {
      const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
      try {
        const make: typeof sourceCreateProvider = (config, deps) => createProvider(config, { ...deps, fetch: globalThis.fetch });
        const { results } = await agentAndPlainTurns(make, kind);
        expect(results[0].toolCalls).toEqual([expect.objectContaining({ name: 'search_vault' })]);
        expect(results[2].text).toMatch(/Question: Hi\.$/);
        // The planner's structured answer runs through withStructuredOutput's chain of runnables.
        const provider = make(configFor(server, kind), { getSecret: () => 'sk-test-key-abcdef' });
        if (provider.structured) expect(typeof (await planOf(provider)).value).toBe('object');
        expect(fetched.length).toBeGreaterThanOrEqual(3);
        expect(fetched.filter((url) => !url.startsWith(server.url))).toEqual([]);
      } finally {
        log.mockRestore();
      }
    });
  });

  function planOf(provider: ReturnType<typeof sourceCreateProvider>): ReturnType<NonNullable<typeof provider.structured>> {
    const messages = plannerMessages(plannerInput([noteArtifact(PLAN), noteArtifact(LONG)], { question: 'Vents?' }));
    return provider.structured!({ messages, schema: PlanAnswerSchema, name: PLAN_ANSWER_NAME });
  }

  it.each(['openai', 'openai-responses', 'anthropic', 'gemini'] as const)('%s: the planner\'s structured answer (a forced tool call) comes back as an object, sent as from the sources', async (kind) => {
    const run = async (make: typeof sourceCreateProvider): Promise<{ result: unknown; wire: unknown[] }> => {
      server.reset();
      const result = await planOf(make(configFor(server, kind), { getSecret: () => 'sk-test-key-abcdef', fetch }));
      return { result, wire: server.requests.map((r) => ({ path: r.path, body: r.body as unknown })) };
    };
    const bundled = await run(createProvider);
    expect(bundled.result).toMatchObject({ method: 'functionCalling', value: expect.any(Object) as unknown });
    const source = await run(sourceCreateProvider);
    expect(JSON.stringify(bundled.wire)).toBe(JSON.stringify(source.wire));
    expect(bundled.result).toEqual(source.result);
  });
});

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { UNUSED_SDK_MODULES } = require('../../scripts/unusedSdkModules.cjs') as { UNUSED_SDK_MODULES: UnusedModule[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { UNUSED_LANGCHAIN_MODULES } = require('../../scripts/unusedLangchainModules.cjs') as { UNUSED_LANGCHAIN_MODULES: UnusedModule[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { UNUSED_PACKAGE_MODULES } = require('../../scripts/unusedPackageModules.cjs') as { UNUSED_PACKAGE_MODULES: UnusedModule[] };

interface UnusedModule {
  readonly pkg: string;
  readonly file: string;
  readonly exports: string[];
}

describe('the modules the bundle stubs (scripts/unusedModules.cjs)', () => {
  const STUBBED = [...UNUSED_SDK_MODULES, ...UNUSED_LANGCHAIN_MODULES, ...UNUSED_PACKAGE_MODULES];

  /**
   * The names a module of the installed package exports (esbuild reads them, as it does when
   * bundling): its own files bundled, so `export * from './x.js'` counts x's names (zod 3's index).
   */
  async function exportsOf(file: string): Promise<string[]> {
    const result = await build({ entryPoints: [file], bundle: true, packages: 'external', platform: 'node', write: false, metafile: true, format: 'esm', logLevel: 'silent', outdir: 'out' });
    return Object.values(result.metafile.outputs).flatMap((o) => o.exports);
  }

  it('each stub exports what the installed module does', async () => {
    const root = path.join(__dirname, '..', '..', 'node_modules');
    const installed: Record<string, string[]> = {};
    for (const entry of STUBBED) installed[`${entry.pkg}/${entry.file}`] = (await exportsOf(path.join(root, entry.pkg, entry.file))).sort();
    expect(Object.fromEntries(STUBBED.map((e) => [`${e.pkg}/${e.file}`, [...e.exports].sort()]))).toEqual(installed);
  });
});
