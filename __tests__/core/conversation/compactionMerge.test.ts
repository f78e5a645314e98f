import { ChatArchive } from '../../../src/core/conversation/archive';
import { encodeChatNote } from '../../../src/core/conversation/codec';
import { compactionToApply } from '../../../src/core/conversation/compactionRecords';
import { mergeChatNote, rebaseOnSaved } from '../../../src/core/conversation/merge';
import type { ChatTurn, CompactionRecord, Conversation } from '../../../src/core/conversation/model';
import { compactionOf } from '../../../src/core/conversation/toRecords';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { chatWith } from './arbitraries';
import { tickingClock } from './helpers';

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
const record = (through: number, previous: number, text: string): CompactionRecord => ({
  trigger: 'auto',
  through,
  previous,
  kind: 'summary',
  turnsDropped: through - previous,
  outputsMasked: 0,
  tokensBefore: 9_000,
  tokensAfter: 4_000,
  summary: null,
  text,
  maskedThrough: through,
  masking: { maxOutputLines: 200, maxCodeLines: 500 },
  at: T0 + 100_000 + through,
  cost: 0,
});

/** What the chat wrote last: four answered turns, condensed through 1 and then through 2. */
const SAVED: Conversation = chatWith({
  id: 'chat-merge',
  title: 'Merge',
  turns: [answered(1), answered(2), answered(3), answered(4)],
  compactions: [record(1, 0, 'Turn 1: the metronome at 60.'), record(2, 1, 'Turns 1-2: the metronome at 60, hands apart.')],
});
/** The chat since: one more turn answered (still rendering through the same compaction). */
const OURS: Conversation = { ...SAVED, turns: [...SAVED.turns, answered(5)], updated: T0 + 6000 };
const BASE = encodeChatNote(SAVED);
const LATEST = '> Turns 1-2: the metronome at 60, hands apart.';
const EDITED = '> Turns 1-2: the metronome at 72 (corrected), hands apart.';

describe('merging a chat note edited while the chat was open: compactions', () => {
  test('the latest summary edited in the note: the edited text wins, the next request names the break, the chat applies it', () => {
    expect(BASE).toContain(LATEST);
    const theirs = BASE.replace(LATEST, EDITED);
    const merged = mergeChatNote(BASE, theirs, OURS);
    const c = merged.conversation;
    expect(c.turns).toEqual(OURS.turns);
    expect(c.compactions?.map((r) => r.text)).toEqual(['Turn 1: the metronome at 60.', 'Turns 1-2: the metronome at 72 (corrected), hands apart.']);
    expect(c.compactions?.[1]).toEqual({ ...(OURS.compactions?.[1] as CompactionRecord), text: c.compactions?.[1].text });
    expect(c.pending).toEqual([{ type: 'condensed', through: 2, kind: 'summary' }]);
    expect(merged.warnings).toEqual(['the note was edited while the chat was open: the summary of turns 1–2 keeps the edited text (sent from the next message on)']);
    expect(merged.edited).toEqual([]);
    // The engine still renders the old summary: the chat hands it the edited one (engine.condense names the break).
    const engineHas = compactionOf(OURS.compactions?.[1] as CompactionRecord);
    expect(compactionToApply(c.compactions, engineHas)).toEqual({ ...engineHas, text: 'Turns 1-2: the metronome at 72 (corrected), hands apart.' });
    expect(compactionToApply(OURS.compactions, engineHas)).toBeNull();
  });

  test('the records are the chat\'s: figures edited in the frontmatter do not move over', () => {
    const theirs = BASE.replace('"tokensAfter":4000', '"tokensAfter":1');
    expect(theirs).not.toBe(BASE);
    const merged = mergeChatNote(BASE, theirs, OURS);
    expect(merged.conversation.compactions).toEqual(OURS.compactions);
    expect(merged.conversation.pending).toBeUndefined();
    expect(merged.warnings).toEqual([]);
  });

  test('an earlier summary edited: its text moves over for the record; nothing is pending', () => {
    const theirs = BASE.replace('> Turn 1: the metronome at 60.', '> Turn 1: the metronome, slowly.');
    const merged = mergeChatNote(BASE, theirs, OURS);
    expect(merged.conversation.compactions?.[0].text).toBe('Turn 1: the metronome, slowly.');
    expect(merged.conversation.pending).toBeUndefined();
    expect(merged.warnings).toEqual(['the note was edited while the chat was open: the summary of turn 1 keeps the edited text']);
  });

  test('a summary callout deleted in the note is not an edit: the chat\'s summary stays', () => {
    const theirs = BASE.replace(`> [!strata-summary]- Condensed: turns 1–2 summarized\n${LATEST}\n\n`, '');
    expect(theirs).not.toBe(BASE);
    const merged = mergeChatNote(BASE, theirs, OURS);
    expect(merged.conversation.compactions).toEqual(OURS.compactions);
    expect(merged.conversation.pending).toBeUndefined();
  });

  test('a compaction made meanwhile: the chat\'s records stand, and the edit lands on the summary it was made to', () => {
    const condensed: Conversation = { ...OURS, compactions: [...(OURS.compactions ?? []), record(4, 2, 'Turns 1-4.')] };
    const merged = mergeChatNote(BASE, BASE.replace(LATEST, EDITED), condensed);
    expect(merged.conversation.compactions?.map((r) => [r.through, r.text])).toEqual([
      [1, 'Turn 1: the metronome at 60.'],
      [2, 'Turns 1-2: the metronome at 72 (corrected), hands apart.'],
      [4, 'Turns 1-4.'],
    ]);
    // The engine renders the newest compaction, which the edit did not touch.
    expect(merged.conversation.pending).toBeUndefined();
  });

  test('rebaseOnSaved carries an edited summary over to the chat as it is now', () => {
    const saved: Conversation = {
      ...SAVED,
      compactions: [SAVED.compactions?.[0] as CompactionRecord, { ...(SAVED.compactions?.[1] as CompactionRecord), text: 'edited by hand' }],
    };
    const rebased = rebaseOnSaved(OURS, SAVED, saved);
    expect(rebased.compactions?.[1].text).toBe('edited by hand');
    expect(rebased.pending).toEqual([{ type: 'condensed', through: 2, kind: 'summary' }]);
    expect(rebased.turns).toEqual(OURS.turns);
  });

  test('through the archive: a save over a note whose summary was edited keeps the edit, and says so', async () => {
    const store = new MemoryChatStore();
    const archive = new ChatArchive(store, tickingClock());
    const { path } = await archive.save(SAVED);
    const text = (await store.read(path)) ?? '';
    await store.process(path, () => text.replace(LATEST, EDITED));
    const result = await archive.save(OURS);
    expect(result.warnings).toEqual(['the note was edited while the chat was open: the summary of turns 1–2 keeps the edited text (sent from the next message on)']);
    expect(result.conversation.compactions?.[1].text).toBe('Turns 1-2: the metronome at 72 (corrected), hands apart.');
    const written = (await store.read(path)) ?? '';
    expect(written).toContain(EDITED);
    expect(written).toContain('## User · 5');
    // Reopened, the note reads clean: the edit is the recorded text now, and the break is still pending.
    const loaded = await new ChatArchive(store, tickingClock()).loadPath(path);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.conversation.pending).toEqual([{ type: 'condensed', through: 2, kind: 'summary' }]);
  });
});
