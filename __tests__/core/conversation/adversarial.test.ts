import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { ChatTurn, Conversation } from '../../../src/core/conversation/model';
import { chooseEncoding } from '../../../src/core/conversation/textBlock';
import { FsChatStore } from '../../../src/node/fsChatStore';
import { chatWith } from './arbitraries';
import { tickingClock } from './helpers';

const MB = 1024 * 1024;

function chat(messages: Array<[string, string | undefined]>): Conversation {
  const turns: ChatTurn[] = messages.map(([text, reply]) => ({
    status: reply === undefined ? 'failed' : 'complete',
    text,
    at: 1_700_000_000_000,
    ...(reply === undefined ? { error: 'network down' } : { reply, replyAt: 1_700_000_001_000, model: 'gpt-4o' }),
    dynamic: [],
    tools: [{ name: 'search', input: '---\n<!--', output: '## User · 9\n```\n-->' }],
    referenced: [],
    problems: [],
  }));
  return chatWith({ id: 'chat-adversarial', title: 'Adversarial', session: { providerId: 'openai', model: 'gpt-4o', sessionId: 'resp_123', cursor: 4 }, turns });
}

const HOSTILE: Array<[string, string]> = [
  ['html comment close', 'before -->\nafter'],
  ['html comment open (would hide the rest of the note)', 'a <!-- never closed\nstill text'],
  ['frontmatter fences', '---\ntitle: forged\nstrata: {}\n---'],
  ['a whole forged note', '---\ntitle: x\n---\n\n## User · 1\n\nforged\n\n## Assistant · 1\n\nforged reply'],
  ['role headings', '## User · 2\n## Assistant · 2\n## user\n\\## User · 3'],
  ['other headings', '# Title\n## Section\n### Sub'],
  ['strata callouts', '> [!strata-failed] Not answered\n> [!strata-tool]- Tool: x\n> {"name":"x"}'],
  ['an unclosed fence', 'code:\n```ts\nconst x = 1;'],
  ['a fence that looks like ours', '```strata-json\n"not json"\n```'],
  ['nested fences', '````\n```\ninner\n```\n````'],
  ['Obsidian comment', '%% hidden until closed'],
  ['lone surrogates (invalid UTF-8 once written)', 'high \ud800 low \udc00 pair 🌱 end \ud83d'],
  ['CR and NUL', 'a\r\nb\rc\u0000d'],
  ['leading and trailing blank lines', '\n\n  indented\n\n'],
  ['empty', ''],
];

describe('adversarial messages round-trip exactly and cannot break parsing', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'strata-adv-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, text] of HOSTILE) {
    test(`${name} (as user text and as reply, written to disk)`, async () => {
      const c = chat([
        [text, text],
        ['plain question', 'plain answer'],
        [text, undefined],
      ]);
      const store = new FsChatStore(dir);
      const archive = new ChatArchive(store, tickingClock());
      const { path: saved } = await archive.save(c);
      const loaded = await new ChatArchive(store, tickingClock()).loadPath(saved);
      expect(loaded.warnings).toEqual([]);
      expect(loaded.conversation).toEqual(c);
      // The bytes on disk are valid UTF-8 that decodes to what was written.
      const bytes = readFileSync(path.join(dir, saved));
      expect(bytes.toString('utf8')).toBe(encodeChatNote(c));
    });
  }

  test('encodings: structure lines are escaped in place, spills are fenced, bad code units go to JSON', () => {
    expect(chooseEncoding('## User · 2')).toBe('plain');
    expect(chooseEncoding('a <!-- b')).toBe('fenced');
    expect(chooseEncoding('```\nopen')).toBe('fenced');
    expect(chooseEncoding('```\nclosed\n```')).toBe('plain');
    expect(chooseEncoding('x\ud800')).toBe('json');
    const note = encodeChatNote(chat([['## User · 2', 'ok']]));
    expect(note).toContain('\n\\## User · 2\n');
    // Only the real headings are headings.
    expect(note.split('\n').filter((l) => /^## (User|Assistant)/.test(l))).toEqual(['## User · 1', '## Assistant · 1']);
  });

  test('1 MB messages (user text, reply, tool output) round-trip', () => {
    const line = 'All work and no play makes a long message. <!-- --> ## User · 1 ```\n';
    const big = line.repeat(Math.ceil(MB / line.length)).slice(0, MB);
    const c = chat([[big, big]]);
    const withTool: Conversation = { ...c, turns: [{ ...c.turns[0], tools: [{ name: 'dump', input: '', output: big }] }] };
    const note = encodeChatNote(withTool);
    expect(note.length).toBeGreaterThan(3 * MB);
    const decoded = decodeChatNote(Buffer.from(note, 'utf8').toString('utf8'), { id: 'x', now: 0 });
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.turns[0].text).toBe(big);
    expect(decoded.conversation.turns[0].reply).toBe(big);
    expect(decoded.conversation.turns[0].tools[0].output).toBe(big);
  });
});
