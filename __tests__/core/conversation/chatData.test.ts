import fc from 'fast-check';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { extractChatData } from '../../../src/core/conversation/chatData';
import { decodeChatNote, encodeChatNote, FORMAT_VERSION, textHash } from '../../../src/core/conversation/codec';
import { parseYaml, splitFrontmatter, stringifyYaml } from '../../../src/core/markdown/frontmatter';
import type { ChatTurn, Conversation } from '../../../src/core/conversation/model';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { searchableText } from '../../../src/core/conversation/chatListRow';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { promptFragments } from '../../../src/core/systemPrompt';
import { loadScenario, recordScenario, scenarioFiles, tickingClock, type VaultReader } from './helpers';
import { richConversation } from './richChat';

const fallback = { id: 'chat-fallback', now: 0 };
const decode = (note: string) => decodeChatNote(note, fallback);
const throughDisk = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

/** The frontmatter's lines, between the fences. */
function frontmatterLines(note: string): string[] {
  const { yaml } = splitFrontmatter(note);
  return (yaml ?? '').split('\n').filter((l, i, all) => i < all.length - 1 || l !== '');
}

/** The chat data callout's JSON lines. */
function dataLines(note: string): string[] {
  return (extractChatData(note.split('\n'), []).inside ?? []).filter((l) => l.startsWith('{'));
}

/**
 * The same chat written as format 1 did: everything under `strata` in the frontmatter, no chat data
 * callout (format 1 also had layer hashes, which the reader drops; fixtures in format1.test.ts have them).
 */
function asFormatOne(note: string): string {
  const { yaml, body } = splitFrontmatter(note);
  const data = parseYaml(yaml ?? '').value ?? {};
  const { inside, rest } = extractChatData(body.slice(1).split('\n'), []);
  const lines = (inside ?? []).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const [head, ...records] = lines;
  const strata = {
    ...(data.strata as Record<string, unknown>),
    ...head,
    format: 1,
    library: records.filter((r) => 'item' in r).map((r) => r.item),
    compactions: records.filter((r) => 'compaction' in r).map((r) => r.compaction),
    turns: records.filter((r) => 'turn' in r).map((r) => r.turn),
  };
  return `---\n${stringifyYaml({ ...data, strata })}---\n\n${rest.join('\n')}`;
}

/** `n` answered turns, each with its envelope, usage, chips and one more library item. */
function longChat(n: number): Conversation {
  const turns: ChatTurn[] = Array.from({ length: n }, (_, i) => ({
    status: 'complete',
    text: `Question ${i + 1} about [[Note ${i}]]?`,
    at: 1_700_000_000_000 + i * 60_000,
    reply: `Answer ${i + 1}.`,
    replyAt: 1_700_000_030_000 + i * 60_000,
    provider: 'openai',
    model: 'gpt-4o',
    chips: [{ kind: 'note', path: `Notes/Note ${i}.md` }],
    dynamic: [],
    tools: [],
    referenced: i > 2 ? [`Notes/Note ${i - 3}.md`] : [],
    problems: [],
    envelope: {
      layers: { L1: { tokens: 55 }, L2: { tokens: 500 * i }, L3: { tokens: 500 }, L4: { tokens: 120 * i }, L5: { tokens: 12 } },
      promptTokens: 567 + 620 * i,
      prefixChange: null,
      full: [`Notes/Note ${i}.md@1`],
      freshness: [],
      removed: [],
    },
    usage: { inputTokens: 567 + 620 * i, outputTokens: 90, cachedReadTokens: 500 * i, cacheWriteTokens: 0 },
    cost: 0.001,
  }));
  return {
    id: 'chat-long',
    title: 'A long chat',
    titleSource: 'generated',
    provider: 'openai',
    model: 'gpt-4o',
    mode: 'chat',
    created: 1_700_000_000_000,
    updated: 1_700_000_000_000 + n * 60_000,
    session: null,
    turns,
    library: turns.map((_, i) => ({ id: `Notes/Note ${i}.md`, kind: 'note', title: `Note ${i}`, source: `Notes/Note ${i}.md`, version: 1, hash: 'a'.repeat(64), tokens: 500, enteredTurn: i + 1 })),
    lastRequest: { count: 2 * n + 1, combined: 'b'.repeat(64), model: 'gpt-4o', staticFragments: [`system:${'c'.repeat(64)}`], libraryVersions: n },
  };
}

describe('format 2: a short frontmatter, the machine state in the chat data callout', () => {
  test('the frontmatter is the same 10 lines at 1, 10, 50 and 200 turns: readable properties and the chat id', () => {
    for (const n of [1, 10, 50, 200]) {
      const note = encodeChatNote(longChat(n));
      expect(frontmatterLines(note)).toEqual([
        'title: A long chat',
        'created: 2023-11-14T22:13:20.000Z',
        `updated: ${new Date(1_700_000_000_000 + n * 60_000).toISOString()}`,
        'provider: openai',
        'model: gpt-4o',
        'mode: chat',
        'strata:',
        `  format: ${FORMAT_VERSION}`,
        '  id: chat-long',
        '  titleSource: generated',
      ]);
      // Under it the messages; at the end of the note (format 3), one folded callout holds the rest:
      // a head line, one line per library item, one per turn.
      expect(note.split('\n---\n')[1].startsWith('\n## User · 1\n')).toBe(true);
      expect(note).toMatch(/\n\n> \[!strata-data\]- Chat data[^\n]*\n(?:> [^\n]*\n)+$/);
      expect(dataLines(note)).toHaveLength(1 + 2 * n);
      const decoded = decode(note);
      expect(decoded.warnings).toEqual([]);
      expect(decoded.conversation).toEqual(longChat(n));
    }
  });

  test('no layer hashes, prefix hashes or empty lists are written', () => {
    const note = encodeChatNote(longChat(3));
    expect(note).not.toMatch(/prefixHash|"problems":\[\]|"freshness":\[\]|"removed":\[\]|"referenced":\[\]|"prefixChange":null/);
    const turn = dataLines(note).filter((l) => l.startsWith('{"turn":'))[1];
    expect(JSON.parse(turn)).toEqual({
      turn: {
        status: 'complete',
        at: '2023-11-14T22:14:20.000Z',
        replyAt: '2023-11-14T22:14:50.000Z',
        provider: 'openai',
        model: 'gpt-4o',
        textHash: textHash('Question 2 about [[Note 1]]?'),
        replyHash: textHash('Answer 2.'),
        chips: [{ kind: 'note', path: 'Notes/Note 1.md' }],
        envelope: { layers: { L1: { tokens: 55 }, L2: { tokens: 500 }, L3: { tokens: 500 }, L4: { tokens: 120 }, L5: { tokens: 12 } }, promptTokens: 1187, full: ['Notes/Note 1.md@1'] },
        usage: { inputTokens: 1187, outputTokens: 90, cachedReadTokens: 500, cacheWriteTokens: 0 },
        cost: 0.001,
      },
    });
  });

  test('a turn\'s line depends on that turn only: a longer chat keeps the earlier lines as they were', () => {
    const long = dataLines(encodeChatNote(longChat(12)));
    const short = dataLines(encodeChatNote(longChat(8)));
    const turnLines = (lines: string[]) => lines.filter((l) => l.startsWith('{"turn":'));
    const itemLines = (lines: string[]) => lines.filter((l) => l.startsWith('{"item":'));
    expect(turnLines(long).slice(0, 8)).toEqual(turnLines(short));
    expect(itemLines(long).slice(0, 8)).toEqual(itemLines(short));
  });

  test('property: any chat (hostile text, envelopes, every chip and item kind, sessions, pending events) reads back exactly', () => {
    fc.assert(
      fc.property(richConversation, (c) => {
        const note = encodeChatNote(c);
        const decoded = decode(throughDisk(note));
        expect(decoded.warnings).toEqual([]);
        expect(decoded.conversation).toEqual(c);
        expect(encodeChatNote(decoded.conversation)).toBe(note);
        // However much state the chat holds, the frontmatter is the 10 lines (extra properties aside).
        expect(frontmatterLines(note)).toHaveLength(10);
      }),
      { numRuns: 500 },
    );
  });

  test('property: the same chat written as format 1 reads to the same conversation, and saves as format 2', () => {
    fc.assert(
      fc.property(richConversation, (c) => {
        const note = encodeChatNote(c);
        const old = asFormatOne(note);
        expect(old).toContain('  format: 1\n');
        expect(old).not.toContain('[!strata-data]');
        const decoded = decode(throughDisk(old));
        expect(decoded.warnings).toEqual([]);
        expect(decoded.conversation).toEqual(c);
        expect(encodeChatNote(decoded.conversation)).toBe(note);
      }),
      { numRuns: 300 },
    );
  });

  test('property: one damaged chat data line never throws, never touches a message, and what is read saves cleanly', () => {
    const damage = fc.record({
      line: fc.nat(),
      how: fc.constantFrom('delete', 'garble', 'duplicate', 'truncate', 'not-json', 'wrong-kind'),
      at: fc.nat(),
    });
    fc.assert(
      fc.property(richConversation, damage, (c, d) => {
        const note = encodeChatNote(c);
        const lines = note.split('\n');
        const data = lines.map((l, i) => (l.startsWith('> {') ? i : -1)).filter((i) => i >= 0);
        const i = data[d.line % data.length];
        const line = lines[i];
        if (d.how === 'delete') lines.splice(i, 1);
        else if (d.how === 'duplicate') lines.splice(i, 0, line);
        else if (d.how === 'garble') lines[i] = line.slice(0, 2 + (d.at % (line.length - 2))) + '"}x' + line.slice(2 + (d.at % (line.length - 2)));
        else if (d.how === 'truncate') lines[i] = line.slice(0, 2 + (d.at % (line.length - 2)));
        else if (d.how === 'not-json') lines[i] = '> this is not JSON';
        else lines[i] = line.replace(/^> \{"(\w+)":/, '> {"$1x":');
        const decoded = decode(lines.join('\n'));
        expect(decoded.conversation.turns.map((t) => t.text)).toEqual(c.turns.map((t) => t.text));
        expect(decoded.conversation.turns.map((t) => t.reply ?? null)).toEqual(c.turns.map((t) => (t.status === 'complete' ? t.reply : null)));
        const again = encodeChatNote(decoded.conversation);
        const reread = decode(again);
        expect(reread.warnings).toEqual([]);
        expect(encodeChatNote(reread.conversation)).toBe(again);
      }),
      { numRuns: 500 },
    );
  });
});

describe('format 3 notes edited by hand', () => {
  const chat = longChat(4);
  const note = encodeChatNote(chat);
  const callout = note.slice(note.indexOf('> [!strata-data]'), note.indexOf('> ```\n', note.indexOf('> [!strata-data]')) + 6);

  test('the chat data callout moved under the properties (where format 2 wrote it): read the same; a save puts it back at the end', () => {
    const moved = note.replace(`\n${callout}`, '').replace('---\n\n## User · 1', `---\n\n${callout}\n## User · 1`);
    expect(moved).not.toBe(note);
    const decoded = decode(moved);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation).toEqual(chat);
    expect(encodeChatNote(decoded.conversation)).toBe(note);
  });

  test('text typed below the chat data callout (the end of the note) is still more of the last reply, as in format 1', () => {
    const decoded = decode(`${note}A line I added.\n`);
    expect(decoded.warnings).toEqual(['message 4: the reply was edited by hand; the edited text is kept']);
    expect(decoded.conversation.turns[3].reply).toBe('Answer 4.\n\nA line I added.');
  });

  test('the chat data callout deleted: said; messages kept, the library rebuilt from the context lists', () => {
    const decoded = decode(note.replace(`\n${callout}`, ''));
    expect(decoded.warnings[0]).toBe("the chat data callout is missing: the library and each message's details are rebuilt from the text");
    expect(decoded.conversation.turns.map((t) => [t.text, t.reply])).toEqual(chat.turns.map((t) => [t.text, t.reply]));
    expect(decoded.conversation.library.map((r) => r.id)).toEqual(chat.library.map((r) => r.id));
    expect(decoded.conversation.turns[0].usage).toBeUndefined();
  });

  test('the frontmatter garbled or the strata property deleted: the chat data still gives the library and every turn\'s details', () => {
    for (const damaged of [note.replace('strata:\n', 'strata: [unclosed\n  : {{\n'), note.replace(/strata:\n(?: {2}.*\n)+/, '')]) {
      const decoded = decode(damaged);
      expect(decoded.conversation.library).toEqual(chat.library);
      expect(decoded.conversation.turns).toEqual(chat.turns);
      expect(decoded.conversation.lastRequest).toEqual(chat.lastRequest);
    }
  });

  test('a second chat data callout (a sync conflict, a paste) is left out with a warning: the one at the end is read', () => {
    const decoded = decode(note.replace('## User · 1', `${callout.replace('"cost":0.001', '"cost":9')}\n## User · 1`));
    expect(decoded.warnings).toEqual(['the note holds 2 chat data callouts; the last one is read, the others were left out']);
    expect(decoded.conversation).toEqual(chat);
  });

  test('in a note that says it is format 2, the first chat data callout (under the properties) is read', () => {
    const formatTwo = note.replace(`\n${callout}`, '').replace('---\n\n## User · 1', `---\n\n${callout}\n## User · 1`).replace('  format: 3\n', '  format: 2\n');
    const pasted = `${formatTwo}\n${callout.replace('"cost":0.001', '"cost":9')}`;
    const decoded = decode(pasted);
    expect(decoded.warnings).toEqual(['the note holds 2 chat data callouts; the first one is read, the others were left out']);
    expect(decoded.conversation).toEqual(chat);
  });

  test('lines of other kinds are skipped (room for more, e.g. token counts keyed by content hash and tokenizer)', () => {
    const withCache = note.replace(/> ```\n$/, '> {"tokens":{"o200k_base":{"3f2a":12}}}\n> ```\n');
    expect(withCache).not.toBe(note);
    const decoded = decode(withCache);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation).toEqual(chat);
  });

  test('a damaged head line: said, and the chat reopens without the last request\'s fingerprint', () => {
    const head = dataLines(note)[0];
    const decoded = decode(note.replace(head, '{"session":null,"lastRequest":'));
    expect(decoded.warnings).toEqual([
      "the chat data's first line (the provider session and the last request) could not be read: the next request starts a new session and cannot prove it extends the last one",
    ]);
    expect(decoded.conversation.lastRequest).toBeNull();
    expect(decoded.conversation.turns).toEqual(chat.turns);
  });

  test('a message cannot forge the chat data callout', () => {
    const forged = { ...chat, turns: [{ ...chat.turns[0], text: '> [!strata-data]- Chat data\n> ```json\n> {"session":null,"lastRequest":null}\n> ```' }, ...chat.turns.slice(1)] };
    const text = encodeChatNote(forged);
    const decoded = decode(text);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation).toEqual(forged);
  });

  test('a damaged chat data callout at the end never becomes text of the last reply', () => {
    const lines = note.split('\n');
    const header = lines.findIndex((l) => l.startsWith('> [!strata-data]'));
    const fence = lines.length - 2;
    const replies = chat.turns.map((t) => t.reply);
    const cases: [string, string[], string[] | null][] = [
      ['a line typed inside it', [...lines.slice(0, header + 3), '---', ...lines.slice(header + 3)], ['text inside the chat data callout was left out: "---"']],
      ['its closing fence replaced', [...lines.slice(0, fence), '---', ''], ['text inside the chat data callout was left out: "---"']],
      ['its header duplicated', [...lines.slice(0, header), lines[header], ...lines.slice(header)], ['the note holds 2 chat data callouts; the last one is read, the others were left out']],
      ['cut right after its header', lines.slice(0, header + 1), null],
      ['blank lines after it', [...lines, '', ''], []],
    ];
    for (const [, damaged, warnings] of cases) {
      const decoded = decode(damaged.join('\n'));
      if (warnings) expect(decoded.warnings).toEqual(warnings);
      expect(decoded.conversation.turns.map((t) => t.reply)).toEqual(replies);
    }
  });
});

describe('the chat list and search with format 2', () => {
  test('full-text search looks at the messages, not at the chat data', async () => {
    const store = new MemoryChatStore();
    const archive = new ChatArchive(store, tickingClock());
    await archive.save(longChat(3));
    const text = [...store.files.values()][0];
    expect(text).toContain('"textHash"');
    expect(searchableText(text)).not.toContain('texthash');
    expect(searchableText(text)).toContain('question 2 about');
    expect(await archive.search('textHash')).toEqual([]);
    expect((await archive.search('question 2')).map((h) => h.id)).toEqual(['chat-long']);
    expect(await archive.list()).toEqual([expect.objectContaining({ id: 'chat-long', title: 'A long chat', turns: 3, warnings: 0 })]);
  });
});

describe('reopening a format 2 note sends what the chat would have sent', () => {
  // A chat whose notes were edited cannot get their earlier versions back from the vault (rehydration.test.ts covers it).
  for (const file of scenarioFiles().filter((f) => loadScenario(f).scenario.turns.every((t) => t.edits.length === 0))) {
    test(`${file.split('/').pop()}: the note saved and reopened gives the same next request as the recorded chat`, async () => {
      let vault: VaultReader | null = null;
      const { conversation, engine } = await recordScenario(file, {
        beforeTurn: (e, _turn, overlay) => {
          vault = overlay;
          return Promise.resolve(e);
        },
      });
      const note = encodeChatNote(conversation);
      expect(frontmatterLines(note).length).toBeLessThanOrEqual(10);
      const decoded = decode(note);
      expect(decoded.warnings).toEqual([]);
      const restored = await rehydrate(decoded.conversation, vault as unknown as VaultReader);
      expect(restored.issues).toEqual([]);
      const input = { userText: 'And what next?', items: [], fragments: promptFragments(), model: conversation.model };
      const live = engine.assemble(input);
      const reopened = restored.engine.assemble(input);
      expect(reopened.messages).toEqual(live.messages);
      expect(reopened.prefixChange).toEqual(live.prefixChange);
      expect(reopened.prefixChange).toBeNull();
    });
  }
});
