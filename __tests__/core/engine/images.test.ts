import path from 'node:path';
import {
  base64Of,
  imageEmbeds,
  imageTokensFor,
  measureImage,
  readNoteImages,
  turnImages,
  MAX_IMAGES_PER_TURN,
} from '../../../src/core/context/images';
import { ChipResolver } from '../../../src/core/context/resolver';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import { messagesEqual } from '../../../src/core/engine/messages';
import { messageHash } from '../../../src/core/compiler/sessionRules';
import { compile } from '../../../src/core/compiler/messageCompiler';
import type { ImagePart } from '../../../src/core/engine/types';
import type { VaultReader } from '../../../src/core/ports/vault';
import { sha256Hex } from '../../../src/core/hash';
import { FsVault } from '../../../src/node/fsVault';

const IMAGE_VAULT = path.join(__dirname, '..', '..', 'providers', 'fixtures', 'imageVault');

/** A vault in memory: text notes and binary files, links read as vault paths or by unique name. */
class BytesVault implements VaultReader {
  constructor(
    private readonly notes: Record<string, string>,
    private readonly files: Record<string, Uint8Array>,
  ) {}
  read(p: string) {
    return Promise.resolve(this.notes[p] ?? null);
  }
  listMarkdown() {
    return Promise.resolve(Object.keys(this.notes).sort());
  }
  readBinary(p: string) {
    return Promise.resolve(this.files[p] ?? null);
  }
  resolveLink(link: string) {
    if (this.files[link]) return Promise.resolve(link);
    const byName = Object.keys(this.files).filter((p) => p.endsWith(`/${link}`));
    return Promise.resolve(byName.length === 1 ? byName[0] : null);
  }
}

/** A minimal PNG header (signature, IHDR with width and height): enough to be measured. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  bytes.set([8, 2, 0, 0, 0], 24);
  return bytes;
}

describe('image embeds in markdown', () => {
  it('finds wiki and markdown embeds in order, once each, outside code, url-decoded, without size or heading', () => {
    const md = [
      'Intro ![[a.png|300]] and ![alt](img/b%20c.JPG "title") then ![[a.png]] again.',
      '```',
      '![[fenced.png]]',
      '```',
      '~~~~md',
      '![x](fenced2.png)',
      '~~~~',
      'Inline `![[code.png]]` is code; ![[d.webp#section]] is not.',
      '![[Some note]] and ![[doc.pdf]] are not images; ![[pic.bmp]] is an image no provider takes.',
      '![remote](https://example.org/x.gif) and ![<angle>](<folder/e f.gif>)',
    ].join('\n');
    expect(imageEmbeds(md)).toEqual([
      { link: 'a.png', kind: 'image' },
      { link: 'img/b c.JPG', kind: 'image' },
      { link: 'd.webp', kind: 'image' },
      { link: 'pic.bmp', kind: 'unsupported' },
      { link: 'https://example.org/x.gif', kind: 'remote' },
      { link: 'folder/e f.gif', kind: 'image' },
    ]);
  });

  it('an unclosed fence hides the rest of the note (as Obsidian renders it)', () => {
    expect(imageEmbeds('![[a.png]]\n```\n![[b.png]]')).toEqual([{ link: 'a.png', kind: 'image' }]);
  });
});

describe('image tokens by provider rule', () => {
  it("OpenAI high detail: fit 2048, shortest side 768, 170 per 512 tile + 85 (OpenAI's worked examples)", () => {
    expect(imageTokensFor(1024, 1024, 'openai')).toBe(765);
    expect(imageTokensFor(2048, 4096, 'openai')).toBe(1105);
    expect(imageTokensFor(512, 512, 'openai')).toBe(255);
    expect(imageTokensFor(2, 2, 'openai')).toBe(255);
  });

  it('Anthropic: long side to 1568, then w×h/750', () => {
    expect(imageTokensFor(1000, 1000, 'anthropic')).toBe(1334);
    expect(imageTokensFor(3136, 1568, 'anthropic')).toBe(Math.ceil((1568 * 784) / 750));
    expect(imageTokensFor(2, 2, 'anthropic')).toBe(1);
  });
});

describe('reading images', () => {
  it('base64 matches Node for every length', () => {
    for (let n = 0; n < 20; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      expect(base64Of(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    }
    const big = Uint8Array.from({ length: 70_001 }, (_, i) => (i * 13) & 255);
    expect(base64Of(big)).toBe(Buffer.from(big).toString('base64'));
  });

  it('measures PNG headers and refuses other bytes', () => {
    expect(measureImage(pngHeader(640, 480))).toEqual({ mediaType: 'image/png', width: 640, height: 480 });
    expect(measureImage(new TextEncoder().encode('not an image at all'))).toBeNull();
  });

  it('sends at most 8, each a known type within the size limit; every other one is a named problem', async () => {
    const files: Record<string, Uint8Array> = {};
    const links: string[] = [];
    for (let i = 1; i <= MAX_IMAGES_PER_TURN + 1; i++) {
      files[`img/p${i}.png`] = pngHeader(10 * i, 10);
      links.push(`![[p${i}.png]]`);
    }
    files['img/fake.png'] = new TextEncoder().encode('hello');
    files['img/huge.png'] = new Uint8Array(3000);
    const md = ['![[fake.png]]', '![[huge.png]]', '![[gone.png]]', '![[x.svg]]', ...links].join('\n');
    const vault = new BytesVault({ 'Note.md': md }, files);
    const { images, problems } = await readNoteImages(vault, 'Note.md', md, { family: 'openai', maxBase64Bytes: 1000 });
    expect(images.map((i) => i.path)).toEqual(Array.from({ length: MAX_IMAGES_PER_TURN }, (_, i) => `img/p${i + 1}.png`));
    expect(images[0]).toMatchObject({ mediaType: 'image/png', width: 10, height: 10, bytes: 33, tokens: 255 });
    expect(images[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(problems.map((p) => [p.chipId, p.reason])).toEqual([
      ['img/fake.png', 'image-not-sent'],
      ['img/huge.png', 'too-large'],
      ['gone.png', 'missing'],
      ['x.svg', 'image-not-sent'],
      [`img/p${MAX_IMAGES_PER_TURN + 1}.png`, 'image-not-sent'],
    ]);
    expect(problems[4].detail).toBe('embedded in Note.md: over the limit of 8 images per message');
  });

  it('the active note sends its images; a text-only model gets a problem instead; other notes name theirs', async () => {
    const vault = new FsVault(IMAGE_VAULT);
    const chips = [
      { kind: 'note' as const, path: 'Active.md', active: true as const },
      { kind: 'note' as const, path: 'Other.md' },
    ];
    const { items } = await new ChipResolver(vault).resolve(chips);
    const vision = await turnImages(chips, items, vault, { model: 'gpt-4o', acceptsImages: true, family: 'openai' });
    expect(vision.images.map((i) => [i.path, i.width, i.height, i.tokens])).toEqual([
      ['attachments/dot.png', 2, 2, 255],
      ['pics/red square.png', 4, 3, 255],
    ]);
    expect(vision.problems).toEqual([{ chipId: 'dot.png', reason: 'image-not-sent', detail: 'in Other.md: images are sent only from the active note' }]);
    const textOnly = await turnImages(chips, items, vault, { model: 'gpt-3.5-turbo', acceptsImages: false, family: 'openai' });
    expect(textOnly.images).toEqual([]);
    expect(textOnly.problems.map((p) => `${p.chipId}: ${p.detail}`)).toEqual([
      'dot.png: images not sent: gpt-3.5-turbo does not accept images',
      'pics/red square.png: images not sent: gpt-3.5-turbo does not accept images',
      'dot.png: in Other.md: images are sent only from the active note',
    ]);
  });

  it('FsVault resolves links by path, relative to the note, then by unique name, never out of the vault', async () => {
    const vault = new FsVault(IMAGE_VAULT);
    expect(await vault.resolveLink('dot.png', 'Active.md')).toBe('attachments/dot.png');
    expect(await vault.resolveLink('pics/red square.png', 'Active.md')).toBe('pics/red square.png');
    expect(await vault.resolveLink('./red square.png', 'pics/Note.md')).toBe('pics/red square.png');
    expect(await vault.resolveLink('../../outside.png', 'Active.md')).toBeNull();
    expect(await vault.resolveLink('nothing.png', 'Active.md')).toBeNull();
    expect((await vault.readBinary('attachments/dot.png'))?.length).toBe(76);
    expect(await vault.readBinary('attachments/none.png')).toBeNull();
  });
});

function image(pathName: string, bytes: number[], tokens = 255): ImagePart {
  const data = Buffer.from(bytes).toString('base64');
  return { path: pathName, mediaType: 'image/png', width: 2, height: 2, bytes: bytes.length, hash: sha256Hex(pathName + bytes.join()), tokens, data };
}

describe('the engine with images', () => {
  const base = (userText: string, images?: ImagePart[]): TurnInput => ({
    userText,
    items: [],
    fragments: [{ id: 'system', lifecycle: 'static', text: 'You are Strata.' }],
    model: 'gpt-4o',
    ...(images ? { images } : {}),
  });

  it('the final user message carries the images; tokens count them; text-only hashes are unchanged', () => {
    const engine = new PromptContextEngine();
    const plain = engine.assemble(base('What is this?'));
    const withImage = engine.assemble(base('What is this?', [image('a.png', [1, 2, 3])]));
    const last = withImage.messages[withImage.messages.length - 1];
    expect(last.images?.map((i) => i.path)).toEqual(['a.png']);
    expect(plain.messages[plain.messages.length - 1].images).toBeUndefined();
    expect(withImage.promptTokens - plain.promptTokens).toBe(255);
    expect(withImage.envelope.layers.L5.tokens - plain.envelope.layers.L5.tokens).toBe(255);
    // Same text, different images: different messages and hashes; text-only: the old formula.
    expect(messagesEqual(last, plain.messages[plain.messages.length - 1])).toBe(false);
    expect(withImage.messageHashes[withImage.messageHashes.length - 1]).not.toBe(plain.messageHashes[plain.messageHashes.length - 1]);
    expect(plain.messageHashes[1]).toBe(sha256Hex(`user\n${plain.messages[1].content}`));
    // The compiler's hash and the engine's agree, images included.
    expect(withImage.messages.map(messageHash)).toEqual(withImage.messageHashes);
  });

  it('history re-sends a turn with its images byte for byte; the same image is not sent again while that turn is in history', () => {
    const engine = new PromptContextEngine();
    const first = engine.assemble(base('What is this?', [image('a.png', [1, 2, 3])]));
    engine.commit(first, 'A dot.');
    const second = engine.assemble(base('And this?', [image('a.png', [1, 2, 3]), image('b.png', [4, 5])]));
    expect(second.prefixChange).toBeNull();
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect(second.messages[1].images?.map((i) => i.path)).toEqual(['a.png']);
    expect(second.messages[3].images?.map((i) => i.path)).toEqual(['b.png']);
    engine.commit(second, 'A bar.');
    expect(engine.completedTurns().map((t) => (t.images ?? []).map((i) => i.path))).toEqual([['a.png'], ['b.png']]);
  });

  it('a resumed session (delta) carries the new images with the rebuilt user message', () => {
    const engine = new PromptContextEngine();
    const first = engine.assemble(base('One'));
    engine.commit(first, 'ok');
    const second = engine.assemble(base('Two', [image('a.png', [9])]));
    const compiled = compile({
      assembly: second,
      capabilities: { sessionResumption: true },
      target: { id: 'p', model: 'gpt-4o' },
      session: { providerId: 'p', model: 'gpt-4o', sessionId: 'resp_1', cursor: 2, seenHash: 'x' },
    });
    expect(compiled.messages[compiled.messages.length - 1].images?.map((i) => i.path)).toEqual(['a.png']);
  });
});
