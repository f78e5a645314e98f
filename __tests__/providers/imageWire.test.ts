import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContextChip } from '../../src/core/context/items';
import { loadSettings, type StrataSettings } from '../../src/core/settings/settings';
import type { ProviderServer, RecordedRequest } from '../../testing/providerServer';
import { FsVault } from '../../src/node/fsVault';
import { makeController, NoteFiles, settingsFor } from '../core/chat/controllerHarness';
import { expectGolden } from '../helpers/golden';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

/**
 * Images from the active note, over the real wire: the local provider server records what each
 * LangChain client sent, compared exactly with a checked-in golden payload per API. Regenerate
 * deliberately with UPDATE_GOLDEN=1 npx jest __tests__/providers/imageWire and review the diff.
 */
const FIXTURE_VAULT = path.join(__dirname, 'fixtures', 'imageVault');
const ACTIVE: ContextChip = { kind: 'note', path: 'Active.md', active: true };
const OTHER: ContextChip = { kind: 'note', path: 'Other.md' };
const DOT = 'attachments/dot.png';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

let vaultDir = '';
beforeEach(() => {
  vaultDir = mkdtempSync(path.join(os.tmpdir(), 'strata-images-'));
  cpSync(FIXTURE_VAULT, vaultDir, { recursive: true });
});
afterEach(() => rmSync(vaultDir, { recursive: true, force: true }));

function textOnlySettings(baseUrl: string): StrataSettings {
  const { settings, warnings } = loadSettings({
    providers: [{ id: 'local', kind: 'openai', name: 'Local', baseUrl: `${baseUrl}/v1`, models: ['gpt-3.5-turbo'], secretId: 'local-key' }],
    defaultProviderId: 'local',
    defaultModel: 'gpt-3.5-turbo',
    generateTitles: false,
  });
  if (warnings.length > 0) throw new Error(warnings.join('\n'));
  return settings;
}

function wire(requests: readonly RecordedRequest[]): unknown[] {
  return requests.map((r) => ({ api: r.api, path: r.path, body: r.body }));
}


const dotBase64 = () => readFileSync(path.join(FIXTURE_VAULT, DOT)).toString('base64');

/** Every image part of a recorded request body, in wire order, as `<media type>:<base64>`. */
function imageParts(wireBody: unknown): string[] {
  const body = wireBody as Record<string, unknown>;
  const out: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const part = value as Record<string, unknown>;
    if (part.type === 'image_url') out.push(String((part.image_url as { url: string }).url));
    else if (part.type === 'input_image') out.push(String(part.image_url));
    else if (part.type === 'image') {
      const source = part.source as { media_type: string; data: string };
      out.push(`data:${source.media_type};base64,${source.data}`);
    } else Object.values(part).forEach(visit);
  };
  visit(body.messages ?? body.input);
  return out;
}

describe.each(['openai', 'openai-responses', 'anthropic'] as const)('images from the active note over %s', (kind) => {
  it('are sent as image parts after the text (golden payload), named from other notes, saved as refs, re-sent on reopen', async () => {
    const vault = new FsVault(vaultDir);
    const files = new NoteFiles();
    const { controller } = makeController(settingsFor(server.url, kind), { vault, files, ids: ['chat-a'] });
    await controller.send('What is in the picture?', [ACTIVE, OTHER]);
    await controller.send('And the roof?', [ACTIVE]);
    const [first, second] = controller.state.answered;
    expect(first.error).toBeUndefined();
    expect(first.reply).toBe('Seen context: Active.md, Other.md. Question: What is in the picture?. Images: 2.');
    // Turn 2: the same images are in history (turn 1's message), not sent again.
    expect(second.reply).toBe('Seen context: Active.md, Other.md. Question: And the roof?. Images: 2.');
    expect(second.envelope?.prefixChange).toBeNull();
    expect(first.problems).toEqual([{ chipId: 'dot.png', reason: 'image-not-sent', detail: 'in Other.md: images are sent only from the active note' }]);

    const requests = [...server.requests];
    expectGolden(`wire-images-${kind}`, wire(requests));
    expect(imageParts(requests[0].body)).toEqual([`data:image/png;base64,${dotBase64()}`, expect.stringMatching(/^data:image\/png;base64,/)]);
    if (kind !== 'openai-responses') expect(imageParts(requests[1].body)).toEqual(imageParts(requests[0].body));
    if (kind === 'anthropic') {
      // The turn's breakpoint sits on the last block of the message: the second image.
      const user = (requests[0].body.messages as Array<{ content: Array<Record<string, unknown>> }>)[0].content;
      expect(user.map((b) => [b.type, b.cache_control !== undefined])).toEqual([
        ['text', false],
        ['image', false],
        ['image', true],
      ]);
    }

    // The chat note keeps refs (path, hash, size, tokens), never the bytes.
    const note = files.only();
    expect(note).toContain(DOT);
    expect(note).not.toContain(dotBase64());
    // The active note's chip keeps its mark, so a retry of a saved turn sends its images too.
    expect(files.chat('chat-a')?.turns[0].chips).toEqual([ACTIVE, OTHER]);
    const saved = files.chat('chat-a')?.turns[0].images;
    expect(saved?.map((i) => [i.path, i.mediaType, i.width, i.height, i.bytes])).toEqual([
      [DOT, 'image/png', 2, 2, 76],
      ['pics/red square.png', 'image/png', 4, 3, 73],
    ]);

    // Reopened, the chat continues with the request an unbroken session sends: images re-read, byte for byte.
    server.requests.length = 0;
    const reopened = makeController(settingsFor(server.url, kind), { vault, files, ids: ['x'] }).controller;
    await reopened.open('chat-a');
    await reopened.send('Thanks.', []);
    expect(reopened.state.answered[2].envelope?.prefixChange).toBeNull();
    expect(reopened.state.answered[2].reply).toContain('Images: 2.');
  });
});

describe('images after reopening', () => {
  it('an image changed since it was sent becomes a marker in history, and the next turn names the break', async () => {
    const vault = new FsVault(vaultDir);
    const files = new NoteFiles();
    const { controller } = makeController(settingsFor(server.url, 'openai'), { vault, files, ids: ['chat-a'] });
    await controller.send('What is in the picture?', [ACTIVE]);
    writeFileSync(path.join(vaultDir, DOT), readFileSync(path.join(vaultDir, 'pics', 'red square.png')));
    server.requests.length = 0;
    const reopened = makeController(settingsFor(server.url, 'openai'), { vault, files, ids: ['x'] }).controller;
    await reopened.open('chat-a');
    await reopened.send('Still there?', []);
    const turn = reopened.state.answered[1];
    expect(turn.envelope?.prefixChange).toEqual({ reason: 'image-changed', detail: `images no longer available as sent: ${DOT}` });
    const body = server.requests[0].body as { messages: Array<{ role: string; content: unknown }> };
    const history = body.messages[1].content as Array<Record<string, unknown>>;
    expect(history[0].text).toContain(`[image ${DOT} is no longer available]`);
    expect(imageParts(body)).toHaveLength(1);
    expect(turn.reply).toContain('Images: 1.');
  });
});

describe('a text-only model', () => {
  it('gets no image part: the images are named as a problem of the turn (golden payload)', async () => {
    const vault = new FsVault(vaultDir);
    const { controller } = makeController(textOnlySettings(server.url), { vault, ids: ['chat-a'] });
    await controller.send('What is in the picture?', [ACTIVE]);
    const [turn] = controller.state.answered;
    expect(turn.problems.map((p) => `${p.chipId}: ${p.detail}`)).toEqual([
      'dot.png: images not sent: gpt-3.5-turbo does not accept images',
      'pics/red square.png: images not sent: gpt-3.5-turbo does not accept images',
    ]);
    expect(turn.images).toBeUndefined();
    const requests = [...server.requests];
    expect(imageParts(requests[0].body)).toEqual([]);
    const user = (requests[0].body.messages as Array<{ content: unknown }>)[1].content;
    expect(typeof user).toBe('string');
    expect(user).toContain('images not sent: gpt-3.5-turbo does not accept images');
    expect(turn.reply).not.toContain('Images:');
    expectGolden('wire-images-text-only', wire(requests));
  });
});
