/**
 * Provider faults as a chat turn sees them: the chat controller, real LangChain clients, real HTTP
 * to the local provider server (a stalled stream) or to a closed port (the provider is down).
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { requestUrl } from 'obsidian';
import type { ProviderServer } from '../../testing/providerServer';
import { createProvider } from '../../src/providers/createProvider';
import { requestUrlFetch } from '../../src/providers/requestUrlFetch';
import type { ProviderFactory } from '../../src/core/ports/providerFactory';
import { KEY, makeController, PLAN, settingsFor } from '../core/chat/controllerHarness';
import { useProviderServer } from '../helpers/providerServer';

let server: ProviderServer;

useProviderServer((s) => (server = s));

/** Real clients, with a short stall timeout (and a first-answer timeout long past it). */
const stallingProviders: ProviderFactory = (p, model) =>
  createProvider(
    { id: p.id, kind: p.kind, model, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), ...(p.secretId ? { secretId: p.secretId } : {}) },
    { getSecret: (id) => (id === 'local-key' ? KEY : null), fetch, retry: { baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 30_000, stallTimeoutMs: 300 },
  );

/** As the plugin builds them (src/obsidian/providerWiring.ts): fetch, then requestUrl (here the workbench's) when fetch fails. */
const pluginLikeProviders: ProviderFactory = (p, model) =>
  createProvider(
    { id: p.id, kind: p.kind, model, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), ...(p.secretId ? { secretId: p.secretId } : {}) },
    {
      getSecret: (id) => (id === 'local-key' ? KEY : null),
      fetch,
      fallbackFetch: requestUrlFetch((params) => requestUrl(params)),
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    },
  );

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const ROOT = path.resolve(__dirname, '../..');

/** Runs fixtures/providerDown.ts in its own Node process: jest's sandbox does not report unhandled rejections. */
function providerDownRun(baseUrl: string, kind: string, route: 'fetch' | 'requestUrl'): { error: string; unhandled: string[] } {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(__dirname, 'fixtures', 'providerDown.ts'), baseUrl, kind, route], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out) as { error: string; unhandled: string[] };
}

describe('a stream that stalls mid-reply', () => {
  test.each(['openai', 'anthropic', 'openai-responses'] as const)('%s: the turn fails with a clear error, keeps what arrived, and Retry completes it', async (kind) => {
    const { controller, files } = makeController(settingsFor(server.url, kind), { providers: stallingProviders });
    server.injectFault({ kind: 'stall-stream', afterChunks: 6 });
    await controller.send('Summarise the plan', [{ kind: 'note', path: PLAN }]);
    await controller.flush();
    let state = controller.state;
    const expected = `Seen context: ${PLAN}. Question: Summarise the plan.`;
    expect(state.pending?.status).toBe('failed');
    expect(state.pending?.error).toMatch(/\) stopped sending for 0\.3 s; what arrived is kept\. Retry to ask again\.$/);
    expect(state.pending?.partial).toBeTruthy();
    expect(expected.startsWith(state.pending?.partial ?? '')).toBe(true);
    expect(state.pending?.partial).not.toBe(expected);
    expect(state.answered).toHaveLength(0);
    // The failed turn is saved with its words and the error (and what arrived: partialKept.test.ts).
    expect(files.chat('chat-a')?.turns).toEqual([expect.objectContaining({ text: 'Summarise the plan', status: 'failed', error: state.pending?.error })]);

    await controller.retry();
    state = controller.state;
    expect(state.pending).toBeNull();
    expect(state.answered[0].reply).toBe(expected);
  });
});

describe('the provider is down', () => {
  test.each([
    ['openai', 'fetch only'],
    ['anthropic', 'fetch only'],
    ['openai-responses', 'fetch only'],
    ['openai', 'fetch, then requestUrl'],
    ['anthropic', 'fetch, then requestUrl'],
  ] as const)('%s (%s): the turn fails with a clear error saying the provider cannot be reached', async (kind, route) => {
    const port = await closedPort();
    const { controller } = makeController(settingsFor(`http://127.0.0.1:${port}`, kind), { providers: route === 'fetch only' ? stallingProviders : pluginLikeProviders });
    await controller.send('Summarise the plan', [{ kind: 'note', path: PLAN }]);
    await controller.flush();
    expect(controller.state.pending?.status).toBe('failed');
    expect(controller.state.pending?.text).toBe('Summarise the plan');
    expect(controller.state.pending?.error).toMatch(new RegExp(`^Could not reach .*\\(local\\) at 127\\.0\\.0\\.1:${port}\\b.*Check the base URL and that the server is running and reachable\\.$`));
  });

  test.each([
    ['openai', 'fetch'],
    ['anthropic', 'fetch'],
    ['openai', 'requestUrl'],
    ['anthropic', 'requestUrl'],
  ] as const)('%s (%s): no promise rejection is left unhandled (own Node process)', async (kind, route) => {
    const port = await closedPort();
    const baseUrl = kind === 'anthropic' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
    const run = providerDownRun(baseUrl, kind, route);
    expect(run.error).toMatch(/^Could not reach .*\(down\) at 127\.0\.0\.1:\d+\b/);
    expect(run.unhandled).toEqual([]);
  });
});
