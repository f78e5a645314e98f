import { omissionText } from '../../../src/core/budget/summarizer';
import type { CompactionEvent } from '../../../src/core/conversation/records/compaction';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import { recordsFor, unrecordedText } from '../../../src/core/conversation/compactionRecords';
import { chatListRowOf } from '../../../src/core/conversation/chatListRow';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { conversationFromEngine } from '../../../src/core/conversation/reload';
import type { ChatTurn, CompactionRecord, Conversation } from '../../../src/core/conversation/model';
import type { TurnInput } from '../../../src/core/engine/engine';
import type { TurnAssembly } from '../../../src/core/engine/turnAssembly';
import { promptFragments } from '../../../src/core/systemPrompt';
import { replayWithEngine } from '../../../src/core/scenario/replay';
import { chatWith } from './arbitraries';
import { budgetScenario, smallBudget, vault } from './budgetScenario';
import { tickingClock } from './helpers';

const fallback = { id: 'chat-fallback', now: 0 };
const T0 = 1_700_000_000_000;

const answered = (n: number): ChatTurn => ({
  status: 'complete',
  text: `question ${n}`,
  at: T0 + n * 1000,
  reply: `answer ${n}`,
  replyAt: T0 + n * 1000 + 500,
  model: 'gpt-4o',
  dynamic: [],
  tools: [],
  referenced: [],
  problems: [],
});
const failed: ChatTurn = { status: 'failed', text: 'lost question', at: T0 + 3100, error: 'HTTP 500', dynamic: [], tools: [], referenced: [], problems: [] };

const record = (through: number, previous: number, fields: Partial<CompactionRecord> = {}): CompactionRecord => ({
  trigger: 'auto',
  through,
  previous,
  kind: 'summary',
  turnsDropped: through - previous,
  outputsMasked: 1,
  tokensBefore: 12_000,
  tokensAfter: 5_000,
  summary: { provider: 'openai', model: 'gpt-4o-mini', usage: { inputTokens: 800, outputTokens: 90, cachedReadTokens: 0, cacheWriteTokens: 0 }, calls: 1 },
  text: `## Asked and answered\n- questions 1 to ${through}, answered`,
  maskedThrough: through + 1,
  masking: { maxOutputLines: 200, maxCodeLines: 500 },
  at: T0 + 10_000 + through,
  cost: 0.0003,
  ...fields,
});

/** Answered turns 1, 2, 3, a failed message, answered turn 4 (message 5) and 5 (message 6); condensed through 2, then through 3. */
const CHAT: Conversation = chatWith({
  id: 'chat-condensed',
  title: 'Condensed',
  turns: [answered(1), answered(2), answered(3), failed, answered(4), answered(5)],
  compactions: [record(2, 0), record(3, 2, { trigger: 'manual', kind: 'omitted', text: '[2 earlier messages omitted]', summary: null, cost: 0 })],
});

const decode = (note: string) => decodeChatNote(note, fallback);
const lines = (note: string) => note.split('\n');
/** The body line of a message heading or a summary callout title. */
const at = (note: string, line: string) => lines(note).indexOf(line);

describe('compactions in the chat note', () => {
  const note = encodeChatNote(CHAT);

  test('each summary is a folded callout at its boundary, before the first message after the turns it condensed', () => {
    const first = '> [!strata-summary]- Condensed: turns 1–2 summarized';
    const second = '> [!strata-summary]- Condensed: turns 1–3 omitted';
    expect(at(note, first)).toBeGreaterThan(at(note, '## Assistant · 2'));
    expect(at(note, first)).toBeLessThan(at(note, '## User · 3'));
    // Turn 3 is the third answered one: its boundary is before the failed message that follows it.
    expect(at(note, second)).toBeGreaterThan(at(note, '## Assistant · 3'));
    expect(at(note, second)).toBeLessThan(at(note, '## User · 4'));
    // The text is readable markdown, quoted.
    expect(note).toContain(`${first}\n> ## Asked and answered\n> - questions 1 to 2, answered\n\n## User · 3`);
    // The chat data holds the rest (no text): one line per compaction.
    expect(note).toMatch(/^> \{"compaction":\{"trigger":"auto","through":2,"previous":0,"kind":"summary",.*"textHash":"[0-9a-f]{16}"\}\}$/m);
    expect(note).not.toMatch(/^> \{"compaction":.*questions 1 to 2/m);
  });

  test('reads back exactly, without warnings, and writes the same note again', () => {
    const decoded = decode(note);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation).toEqual(CHAT);
    expect(encodeChatNote(decoded.conversation)).toBe(note);
  });

  test('a compaction made after the last message stands after it, at the end of the messages', () => {
    const chat = { ...CHAT, compactions: [...(CHAT.compactions ?? []), record(5, 3, { maskedThrough: 5 })] };
    const text = encodeChatNote(chat);
    // At the end of the messages: only the chat data callout (format 3) comes after it.
    expect(text.slice(0, text.indexOf('\n> [!strata-data]')).trimEnd().split('\n').slice(-3)).toEqual(['> [!strata-summary]- Condensed: turns 1–5 summarized', '> ## Asked and answered', '> - questions 1 to 5, answered']);
    expect(decode(text)).toEqual(expect.objectContaining({ warnings: [] }));
    expect(decode(text).conversation).toEqual(chat);
  });

  test('a note without compactions reads as before: no compactions, no warnings', () => {
    const plain = chatWith({ id: 'plain', title: 'Plain', turns: [answered(1)] });
    const text = encodeChatNote(plain);
    expect(text).not.toContain('compactions');
    expect(text).not.toContain('strata-summary');
    const decoded = decode(text);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation).toEqual(plain);
    expect('compactions' in decoded.conversation).toBe(false);
  });

  test('the chat list counts the messages, not the lines a summary quotes', () => {
    const chat = { ...CHAT, compactions: [record(2, 0, { text: '## User · 9\n## User\nquestion 1' })] };
    expect(chatListRowOf('Strata/Chats/x.md', encodeChatNote(chat), 'x')).toEqual(expect.objectContaining({ turns: 6, warnings: 0 }));
  });

  test('summary text that looks like the note\'s structure stays inside its callout and comes back exactly', () => {
    const hostile = [
      '## User · 9',
      '## Assistant',
      '> [!strata-tool]- Tool: x',
      '[!strata-summary]- Condensed: turn 1 summarized',
      '\t[!strata-url]',
      '\\[!strata-context]',
      '```strata-json',
      '```',
      '<!-- open comment',
      '',
      '> quoted',
    ].join('\n');
    for (const text of [hostile, `${hostile}\r\nwith a CR`, '', '\n\n', '```strata-text\nunclosed']) {
      const chat = { ...CHAT, compactions: [record(2, 0, { text })] };
      const written = encodeChatNote(chat);
      const decoded = decode(written);
      expect(decoded.warnings).toEqual([]);
      expect(decoded.conversation.turns.map((t) => t.text)).toEqual(CHAT.turns.map((t) => t.text));
      expect(decoded.conversation.compactions?.[0].text).toBe(text);
      expect(encodeChatNote(decoded.conversation)).toBe(written);
    }
  });
});

describe('a chat note whose compactions were edited or damaged by hand', () => {
  const note = encodeChatNote(CHAT);

  test('the latest summary edited: the edited text is used, said, and the next request names the break (condensed)', () => {
    const edited = note.replace('> [2 earlier messages omitted]', '> The user is learning the Minuet in G; bars 9–12 are the hard part.');
    const decoded = decode(edited);
    expect(decoded.warnings).toEqual(['the summary of turns 1–3 was edited in the note; the edited text is sent from the next message on']);
    const c = decoded.conversation;
    expect(c.compactions?.[1].text).toBe('The user is learning the Minuet in G; bars 9–12 are the hard part.');
    expect(c.compactions?.[1]).toEqual({ ...(CHAT.compactions?.[1] as CompactionRecord), text: c.compactions?.[1].text });
    expect(c.pending).toEqual([{ type: 'condensed', through: 3, kind: 'omitted' }]);
    // Saved again: the edit is now the recorded text (no warning), and the break is still pending until a request is made.
    const again = decode(encodeChatNote(c));
    expect(again.warnings).toEqual([]);
    expect(again.conversation).toEqual(c);
  });

  test('an earlier summary edited: kept for the record, nothing pending (only the latest is sent)', () => {
    const edited = note.replace('> - questions 1 to 2, answered', '> - questions 1 and 2, answered by hand');
    const decoded = decode(edited);
    expect(decoded.warnings).toEqual(['the summary of turns 1–2 was edited in the note; the edit is kept for the record (only the latest summary is sent)']);
    expect(decoded.conversation.compactions?.[0].text).toContain('answered by hand');
    expect(decoded.conversation.pending).toBeUndefined();
  });

  test('a summary callout deleted: an omission marker stands for it (folding in the previous summary), said', () => {
    const callout = '> [!strata-summary]- Condensed: turns 1–3 omitted\n> [2 earlier messages omitted]\n\n';
    expect(note).toContain(callout);
    const decoded = decode(note.replace(callout, ''));
    expect(decoded.warnings).toEqual(['the summary of turns 1–3 is missing from the note; an omission marker stands for it']);
    const latest = decoded.conversation.compactions?.[1];
    expect(latest).toEqual(expect.objectContaining({ through: 3, kind: 'omitted', text: omissionText(CHAT.compactions?.[0].text ?? null, 2, []) }));
    expect(decoded.conversation.pending).toEqual([{ type: 'condensed', through: 3, kind: 'omitted' }]);
    expect(decoded.conversation.turns).toEqual(CHAT.turns);
  });

  test('a compaction record deleted: the callout is kept as a compaction at its place, without masking, said', () => {
    const data = note.split('\n');
    const i = data.findIndex((l) => l.startsWith('> {"compaction":{"trigger":"manual"'));
    data.splice(i, 1);
    const decoded = decode(data.join('\n'));
    expect(decoded.warnings).toEqual(['a summary in the note (turns 1–3) has no compaction record in the frontmatter; it is kept as one, without masking']);
    const latest = decoded.conversation.compactions?.[1];
    expect(latest).toEqual(
      expect.objectContaining({ through: 3, previous: 2, kind: 'omitted', text: '[2 earlier messages omitted]', maskedThrough: 3, summary: null, cost: null, at: CHAT.updated }),
    );
    expect(decoded.conversation.pending).toEqual([{ type: 'condensed', through: 3, kind: 'omitted' }]);
  });

  test('a damaged record: left out with a warning, and its callout read without it', () => {
    const decoded = decode(note.replace('"through":3,"previous":2,"kind":"omitted"', '"through":"three","previous":2,"kind":"omitted"'));
    expect(decoded.warnings).toEqual([
      'strata.compactions[1].through: expected a number; left out: its summary callout, if any, is read without it',
      'a summary in the note (turns 1–3) has no compaction record in the frontmatter; it is kept as one, without masking',
    ]);
    expect(decoded.conversation.compactions?.map((c) => [c.through, c.kind, c.text])).toEqual([
      [2, 'summary', CHAT.compactions?.[0].text],
      [3, 'omitted', '[2 earlier messages omitted]'],
    ]);
    expect(decoded.conversation.turns).toEqual(CHAT.turns);
  });

  test('a message deleted above a summary: the summary stands for the answered messages above it, masking shifted with it', () => {
    const start = note.indexOf('## User · 1\n');
    const end = note.indexOf('## User · 2\n');
    const decoded = decode(note.slice(0, start) + note.slice(end));
    expect(decoded.warnings).toEqual(
      expect.arrayContaining([
        'the summary of turns 1–2 now follows 1 answered message(s) (messages above it changed); it stands for turn 1',
        'the summary of turns 1–3 now follows 2 answered message(s) (messages above it changed); it stands for turns 1–2',
      ]),
    );
    expect(decoded.conversation.compactions?.map((c) => [c.through, c.maskedThrough])).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(decoded.conversation.turns.map((t) => t.text)).toEqual(CHAT.turns.slice(1).map((t) => t.text));
    expect(decoded.conversation.pending).toEqual([{ type: 'condensed', through: 2, kind: 'omitted' }]);
  });

  test('a summary moved above every answered message condenses nothing: left out, said, and no message lost', () => {
    const callout = '> [!strata-summary]- Condensed: turns 1–2 summarized\n> ## Asked and answered\n> - questions 1 to 2, answered\n\n';
    const moved = note.replace(callout, '').replace('## User · 1\n', `${callout}## User · 1\n`);
    const decoded = decode(moved);
    expect(decoded.warnings).toEqual(['the compaction of turns 1–2 condenses no message still in the note; left out']);
    expect(decoded.conversation.compactions?.map((c) => c.through)).toEqual([3]);
    expect(decoded.conversation.turns).toEqual(CHAT.turns);
    expect(decoded.conversation.preamble).toBeUndefined();
    // Without its record, the callout alone is said to condense nothing.
    const records = moved.split('\n').filter((l) => !l.startsWith('> {"compaction":{"trigger":"auto","through":2')).join('\n');
    expect(decode(records).warnings).toEqual([
      'a summary callout ("Condensed: turns 1–2 summarized") stands above every answered message; it condenses nothing and was left out',
    ]);
  });
});

describe('records for an engine\'s compactions (conversationFromEngine)', () => {
  const current = { through: 4, kind: 'summary' as const, text: 'latest summary', maskedThrough: 5, masking: { maxOutputLines: 10, maxCodeLines: 10 } };
  const event = (through: number, previous: number): CompactionEvent => ({
    trigger: 'auto',
    through,
    previous,
    kind: 'summary',
    turnsDropped: through - previous,
    outputsMasked: 0,
    tokensBefore: 100,
    tokensAfter: 50,
    summary: { provider: 'openai', model: 'gpt-4o-mini', usage: { inputTokens: 1, outputTokens: 1, cachedReadTokens: 0, cacheWriteTokens: 0 }, calls: 1 },
  });

  test('no compaction, no records; no events, one neutral record for the latest', () => {
    expect(recordsFor(null, [event(2, 0)], 7)).toEqual([]);
    expect(recordsFor(current, undefined, 7)).toEqual([
      { trigger: 'auto', through: 4, previous: 0, kind: 'summary', turnsDropped: 4, outputsMasked: 0, tokensBefore: 0, tokensAfter: 0, summary: null, text: 'latest summary', maskedThrough: 5, masking: current.masking, at: 7, cost: null },
    ]);
  });

  test('events complete the record; the latest renders as the engine does; events a truncation undid are left out', () => {
    const records = recordsFor(current, [event(2, 0), event(4, 2), event(6, 4)], 7);
    expect(records.map((r) => [r.through, r.text, r.maskedThrough, r.cost])).toEqual([
      [2, unrecordedText(2), 2, null],
      [4, 'latest summary', 5, null],
    ]);
    // A stale full record for the latest: what the engine renders wins.
    const stale = { ...records[1], text: 'old text', maskedThrough: 4 };
    expect(recordsFor(current, [records[0], stale], 7)[1]).toEqual(records[1]);
    // No event for the latest (it came after them): a neutral record follows.
    expect(recordsFor(current, [event(2, 0)], 7).map((r) => [r.through, r.previous, r.text])).toEqual([
      [2, 0, unrecordedText(2)],
      [4, 2, 'latest summary'],
    ]);
  });
});

describe('reopening a condensed chat', () => {
  const input = (userText: string): TurnInput => ({ userText, items: [], fragments: promptFragments(), model: 'gpt-4o' });

  async function condensedNote(): Promise<{ note: string; next: TurnAssembly }> {
    const { turns, engine } = await replayWithEngine(budgetScenario(20), vault(), { budget: smallBudget() });
    const c = conversationFromEngine(engine.snapshot(), { id: 'chat-r', provider: 'openai', model: 'gpt-4o' }, tickingClock(), turns.map((t) => t.assembly));
    return { note: encodeChatNote(c), next: engine.assemble(input('one more question')) };
  }

  test('the engine renders through the latest compaction: the next request is the unbroken one, byte for byte', async () => {
    const { note, next } = await condensedNote();
    const decoded = decode(note);
    const restored = await rehydrate(decoded.conversation, vault());
    expect(restored.issues).toEqual([]);
    const reopened = restored.engine.assemble(input('one more question'));
    expect(reopened.messages).toEqual(next.messages);
    expect(reopened.prefixChange).toBeNull();
  });

  test('the latest summary edited in the note: sent as edited, and the break is named condensed (not an unexplained history edit)', async () => {
    const { note, next } = await condensedNote();
    const title = /^> \[!strata-summary\]- Condensed: turns 1–(\d+) summarized$/gm;
    const through = Number([...note.matchAll(title)].pop()?.[1]);
    const edited = note.replace(/^(> \[!strata-summary\]- Condensed: turns 1–\d+ summarized\n(?:>.*\n)*?)(> ## Asked and answered\n)(?![\s\S]*> \[!strata-summary\])/m, '$1> The user corrected this summary: the tempo is 72, not 60.\n$2');
    expect(edited).not.toBe(note);
    const decoded = decode(edited);
    expect(decoded.warnings).toEqual([`the summary of turns 1–${through} was edited in the note; the edited text is sent from the next message on`]);
    const restored = await rehydrate(decoded.conversation, vault());
    const reopened = restored.engine.assemble(input('one more question'));
    expect(reopened.prefixChange?.reason).toBe('condensed');
    expect(reopened.messages.some((m) => m.content.includes('the tempo is 72, not 60'))).toBe(true);
    expect(next.messages.some((m) => m.content.includes('the tempo is 72, not 60'))).toBe(false);
  });

  test('a compaction past the answered turns (a chat built inconsistently) is dropped with an issue: history is sent in full', async () => {
    const chat = { ...CHAT, compactions: [record(9, 0)] };
    const restored = await rehydrate(chat, vault());
    expect(restored.issues).toEqual([
      { kind: 'compaction-dropped', id: 'compaction:9', message: 'the summary of turns 1–9 covers more messages than the chat has answered (5); history is sent in full instead' },
    ]);
    expect(restored.engine.currentCompaction()).toBeNull();
    const kept = await rehydrate(CHAT, vault());
    expect(kept.engine.currentCompaction()).toEqual({ through: 3, kind: 'omitted', text: '[2 earlier messages omitted]', maskedThrough: 4, masking: { maxOutputLines: 200, maxCodeLines: 500 } });
  });
});
