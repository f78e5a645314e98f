import type { ProviderServer, WireJson } from '../../../testing/providerServer';
import { countTokens, IMAGE_BASE_TOKENS, imageTokens } from '../../../testing/providerServer/prompt';
import { postJson } from './helpers';
import { useProviderServer } from '../../helpers/providerServer';

/** 1500 bytes of image data: counted 85 + 2 tokens. */
const DATA = Buffer.alloc(1500, 7).toString('base64');
const URL_ = `data:image/png;base64,${DATA}`;

let server: ProviderServer;
useProviderServer((s) => (server = s), { port: 0, clock: () => 1_700_000_000_000 });

async function chat(content: unknown): Promise<{ status: number; body: WireJson }> {
  const response = await postJson(`${server.url}/v1/chat/completions`, { model: 'gpt-4o', messages: [{ role: 'user', content }] });
  return { status: response.status, body: (await response.json()) };
}

describe('image parts on the local provider server', () => {
  it('counts an image as 85 + one token per started 1000 bytes, not as its base64 text', async () => {
    expect(imageTokens(1500)).toBe(IMAGE_BASE_TOKENS + 2);
    const plain = await chat([{ type: 'text', text: 'What is this?' }]);
    const withImage = await chat([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: URL_, detail: 'high' } },
    ]);
    expect(withImage.status).toBe(200);
    const markerTokens = withImage.body.usage.prompt_tokens - plain.body.usage.prompt_tokens - imageTokens(1500);
    // The image costs its fixed count plus a short marker line naming it (far below its base64's tokens).
    expect(markerTokens).toBeGreaterThan(0);
    expect(markerTokens).toBeLessThan(40);
    expect(countTokens('gpt-4o', DATA)).toBeGreaterThan(200);
    expect(withImage.body.choices[0].message.content).toBe('Seen context: none. Question: What is this?. Images: 1.');
  });

  it('Responses input_image and Anthropic image blocks are counted and named in the reply', async () => {
    const responses = await postJson(`${server.url}/v1/responses`, {
      model: 'gpt-4o',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Two?' }, { type: 'input_image', image_url: URL_, detail: 'high' }, { type: 'input_image', image_url: URL_ }] }],
    });
    const r = (await responses.json());
    expect(r.output[0].content[0].text).toBe('Seen context: none. Question: Two?. Images: 2.');
    const anthropic = await postJson(
      `${server.url}/v1/messages`,
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'One?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: DATA } }] }],
      },
      { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
    );
    const a = (await anthropic.json());
    expect(a.content[0].text).toBe('Seen context: none. Question: One?. Images: 1.');
    expect(a.usage.input_tokens).toBeGreaterThan(imageTokens(1500));
  });

  it('refuses images that are not base64 data of a known type', async () => {
    expect((await chat([{ type: 'image_url', image_url: { url: 'https://example.org/x.png' } }])).status).toBe(400);
    expect((await chat([{ type: 'image_url', image_url: { url: 'data:image/bmp;base64,AAAA' } }])).status).toBe(400);
    expect((await chat([{ type: 'image_url', image_url: { url: 'data:image/png;base64,not base64!' } }])).status).toBe(400);
  });
});
