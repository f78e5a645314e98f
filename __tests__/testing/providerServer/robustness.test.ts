import fc from 'fast-check';
import type { ProviderServer } from '../../../testing/providerServer';
import { postJson } from './helpers';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { model: 'gpt-4o-mini' });

const PATHS = ['/v1/chat/completions', '/v1/responses', '/v1/messages', '/v1/messages/count_tokens'];

// Bodies mostly shaped like real requests, with arbitrary values mixed in where clients put structure.
const mostly = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: fc.anything() });
const text = fc.oneof(
  fc.string(),
  fc.constantFrom('<note_context id="a.md" title="A">\nx\n</note_context>\nWhy?', '<context_refs>\n- a.md\n</context_refs>', '<system-reminder>\nr\n</system-reminder>\nhi', '</note_context>'),
);
const part = fc.record(
  { type: fc.constantFrom('text', 'input_text', 'output_text', 'image_url', 'tool_result', 'tool_use'), text, cache_control: fc.constant({ type: 'ephemeral' }) },
  { requiredKeys: ['type'] },
);
const content = mostly(fc.oneof(text, fc.array(mostly(part), { maxLength: 3 })));
const message = mostly(fc.record({ role: fc.constantFrom('user', 'user', 'assistant', 'system', 'tool', 'developer'), content }));
const body = fc.record(
  {
    model: mostly(fc.constantFrom('gpt-4o', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'llama3')),
    max_tokens: mostly(fc.constant(64)),
    messages: mostly(fc.array(message, { minLength: 1, maxLength: 4 })),
    input: mostly(fc.oneof(text, fc.array(message, { maxLength: 3 }))),
    instructions: mostly(text),
    system: mostly(fc.oneof(text, fc.array(mostly(part), { maxLength: 2 }))),
    tools: mostly(fc.array(fc.record({ name: fc.string(), input_schema: fc.object() }), { maxLength: 2 })),
    previous_response_id: fc.anything(),
    prompt_cache_key: mostly(fc.string()),
    cache_control: fc.constant({ type: 'ephemeral' }),
    stream: fc.boolean(),
    stream_options: fc.constant({ include_usage: true }),
  },
  { requiredKeys: ['model', 'max_tokens', 'stream'] },
);

describe('robustness', () => {
  it('answers any request body with a success or a provider-shaped 4xx, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), body, async (path, value) => {
        const response = await postJson(`${server.url}${path}`, value, { 'anthropic-version': '2023-06-01' });
        const text = await response.text();
        if (response.status === 200) return;
        expect(response.status).toBe(400);
        const parsed = JSON.parse(text);
        expect(parsed.error.type).toBe('invalid_request_error');
        if (path.includes('/messages')) expect(parsed.type).toBe('error');
      }),
      { numRuns: 200, seed: 20261122 },
    );
  });

  it('answers the auxiliary routes', async () => {
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    const models = await (await fetch(`${server.url}/v1/models`)).json();
    expect(models.data[0]).toMatchObject({ id: 'gpt-4o-mini', object: 'model', type: 'model' });
    expect((await (await fetch(`${server.url}/v1/models/claude-sonnet-4-5`)).json()).id).toBe('claude-sonnet-4-5');
    const missing = await fetch(`${server.url}/v1/nothing`, { headers: { 'anthropic-version': '2023-06-01' } });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.type).toBe('not_found_error');
    // The OpenAI base URL may be given with or without /v1.
    const bare = await postJson(`${server.url}/chat/completions`, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect((await bare.json()).choices[0].message.content).toBe('Seen context: none. Question: hi.');
  });

  it("accepts Claude Code's mid-conversation system messages only under its per-turn-control beta", async () => {
    const request = {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [
        { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nrules\n</system-reminder>' }, { type: 'text', text: 'hello' }] },
        { role: 'system', content: [{ type: 'text', text: '# Environment', cache_control: { type: 'ephemeral' } }] },
      ],
    };
    const refused = await postJson(`${server.url}/v1/messages`, request, { 'anthropic-version': '2023-06-01' });
    expect(refused.status).toBe(400);
    const accepted = await postJson(`${server.url}/v1/messages`, request, { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,per-turn-control-2026-07-01' });
    expect((await accepted.json()).content[0].text).toBe('Seen context: none. Question: hello.');
  });
});
