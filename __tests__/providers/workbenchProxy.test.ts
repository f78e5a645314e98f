/**
 * The workbench's same-origin proxy (/provider/* to the local provider server), over real HTTP:
 * what the page's fetch sees when the provider misbehaves upstream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ProviderServer } from '../../testing/providerServer';
import { startWorkbenchServer, type WorkbenchServer } from '../../workbench/server';
import { useProviderServer } from '../helpers/providerServer';

let provider: ProviderServer;
let workbench: WorkbenchServer;
let vaultDir: string;

useProviderServer((s) => (provider = s));
beforeAll(async () => {
  vaultDir = mkdtempSync(path.join(tmpdir(), 'strata-proxy-'));
  workbench = await startWorkbenchServer({ vaultDir, providerUrl: provider.url });
});
afterAll(async () => {
  await workbench.close();
  rmSync(vaultDir, { recursive: true, force: true });
});

function streamingRequest(): Promise<Response> {
  return fetch(`${workbench.url}/provider/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'What is a recurring task?' }] }),
  });
}

/** Reads the whole body: its text, or the error reading it ended with. */
async function readBody(response: Response): Promise<{ text: string; error?: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

describe('workbench provider proxy', () => {
  test('a whole stream passes through and ends', async () => {
    const response = await streamingRequest();
    expect(response.status).toBe(200);
    const body = await readBody(response);
    expect(body.error).toBeUndefined();
    expect(body.text).toContain('data: [DONE]');
  });

  test('an upstream stream cut midway reaches the page as an error, not a body that never ends', async () => {
    provider.injectFault({ kind: 'cut-stream', afterChunks: 3 });
    const response = await streamingRequest();
    expect(response.status).toBe(200);
    const body = await readBody(response);
    expect(body.text).toContain('data: ');
    expect(body.text).not.toContain('[DONE]');
    // fetch's own error for a broken body (its TypeError comes from Node's realm, not the test's).
    expect(body.error).toBeDefined();
    expect((body.error as { name?: unknown }).name).toBe('TypeError');
  }, 15_000);
});
