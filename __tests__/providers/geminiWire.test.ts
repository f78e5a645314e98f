import type { ProviderServer, RecordedRequest } from '../../testing/providerServer';
import type { ChatMessage } from '../../src/core/engine/messages';
import { expectGolden } from '../helpers/golden';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';
import { NOTE_PATH, NOTE_TEXT, noteBlock, providerFor } from './helpers';

/**
 * Gemini's wire, exactly (issue 32): what ChatGoogleGenerativeAI sends to the local server for a
 * chat whose system message makes an explicit cache entry, a message with an image from the active
 * note, an agent step with a function call and its result, compared with a checked-in golden payload.
 * Regenerate deliberately with UPDATE_GOLDEN=1 npx jest __tests__/providers/geminiWire and review.
 */
let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function wire(requests: readonly RecordedRequest[]): unknown[] {
  return requests.map((r) => ({ api: r.api, path: r.path, body: r.body }));
}

test('explicit entry, image, function call and result (golden payload)', async () => {
  const provider = providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash' });
  const system = `You are Strata.\n\n<context_library>\n${noteBlock(NOTE_PATH, NOTE_TEXT)}\n</context_library>`;
  const image = { path: 'Images/dot.png', mediaType: 'image/png', width: 1, height: 1, bytes: 70, hash: 'dot', tokens: 85, data: PNG };
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: 'What is in this picture? [[tool readNote {"path":"Tasks/Priorities.md"}]]', images: [image] },
  ];
  const tools = [{ name: 'readNote', description: 'Read a note', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
  const step = await provider.send({ messages, tools, cacheKey: 'strata-wire', onToken: () => undefined });
  const calls = step.toolCalls ?? [];
  expect(calls.map((c) => c.name)).toEqual(['readNote']);
  // Ids derived from the call, not LangChain's random ones: the saved chat is the same on every run.
  expect(calls[0].id).toMatch(/^call_[0-9a-f]{16}_1$/);
  const steps = [{ text: step.text, calls, results: calls.map((c) => ({ callId: c.id, name: c.name, content: '# Priorities', isError: false })) }];
  const answer = await provider.send({ messages, tools, steps, cacheKey: 'strata-wire' });
  expect(answer.text).toContain('readNote');
  expectGolden('wire-gemini', wire(server.requests));
});
