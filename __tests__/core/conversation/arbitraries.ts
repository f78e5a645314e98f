import fc from 'fast-check';
import type { ChatTurn, CompactionRecord, Conversation } from '../../../src/core/conversation/model';

/** Lines that look like the note's own structure or that markdown treats specially. */
export const NASTY_LINES = [
  '---',
  '...',
  '<!--',
  '-->',
  '<!-- strata -->',
  '%%',
  '## User · 2',
  '## Assistant · 1',
  '## User',
  '## assistant',
  '\\## User · 3',
  '\\\\## Assistant',
  '> [!strata-tool]- Tool: x',
  '> [!strata-failed] Not answered',
  '> [!strata-context]- Context (1)',
  '> [!strata-summary]- Condensed: turns 1–2 summarized',
  '[!strata-summary]- Condensed: turn 1 omitted',
  ' [!strata-tool] x',
  '\\[!strata-url]',
  '> [!summary]- Condensed: turns 1–3 summarized',
  '>',
  '> ',
  '```',
  '````',
  '~~~',
  '```strata-text',
  '```strata-json',
  '````strata-text',
  '\\```strata-text',
  '# Heading',
  '### Sub',
  '> quote',
  '> [!note] a callout',
  '- [[Some/Note.md]]',
  '[Timestamp: 2024/01/02 03:04:05]',
  '**user**: hi',
  '',
  '   ',
  '\t',
  '\ud800',
  'a\udc00b',
  'x\r',
  '\u0000',
  'emoji 🌱 ok',
  'title: injected',
];

const line = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_LINES) },
  { weight: 3, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

/** Message text: a few lines of ordinary and hostile content. */
export const messageText = fc.array(line, { minLength: 0, maxLength: 6 }).map((lines) => lines.join('\n'));

const tool = fc.record({ name: fc.string({ minLength: 1, maxLength: 12 }), input: messageText, output: messageText });

const turn: fc.Arbitrary<ChatTurn> = fc
  .record({
    failed: fc.boolean(),
    text: messageText,
    reply: messageText,
    sent: fc.option(messageText, { nil: undefined }),
    tools: fc.array(tool, { maxLength: 2 }),
    dynamic: fc.array(messageText, { maxLength: 1 }),
    error: fc.string({ maxLength: 40 }),
    // What had arrived of a cut reply (kept in the note under the message it did not answer).
    partial: fc.option(messageText, { nil: undefined }),
  })
  .map(({ failed, text, reply, sent, tools, dynamic, error, partial }, ): ChatTurn => ({
    status: failed ? 'failed' : 'complete',
    text,
    ...(sent !== undefined ? { sent } : {}),
    at: 1_700_000_000_000,
    ...(failed ? { error: error || 'not answered' } : { reply, replyAt: 1_700_000_001_000, model: 'gpt-4o' }),
    ...(failed && partial ? { partial } : {}),
    dynamic: dynamic.map((t, i) => ({ id: `d${i}`, lifecycle: 'dynamic' as const, text: t })),
    tools,
    referenced: [],
    problems: [],
  }));

/** A compaction before its boundary is known: `through` and `masked` pick turns once the chat's answered turns are. */
const compactionSeed = fc.record({
  through: fc.nat(),
  masked: fc.nat(),
  kind: fc.constantFrom('summary' as const, 'omitted' as const),
  trigger: fc.constantFrom('auto' as const, 'manual' as const),
  text: messageText,
  tokens: fc.tuple(fc.nat({ max: 200_000 }), fc.nat({ max: 200_000 })),
  outputsMasked: fc.nat({ max: 9 }),
  summary: fc.option(fc.record({ provider: fc.string({ maxLength: 12 }), model: fc.string({ maxLength: 12 }), calls: fc.nat({ max: 4 }) }), { nil: null }),
  fallback: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
  cost: fc.constantFrom(0, 0.0012, 1.5, null),
});

/** Compactions a chat with these turns can have: boundaries on answered turns, oldest first, masking after the boundary. */
type CompactionSeed = typeof compactionSeed extends fc.Arbitrary<infer S> ? S : never;

function compactionsFor(turns: readonly ChatTurn[], seeds: readonly CompactionSeed[]): CompactionRecord[] {
  const answered = turns.filter((t) => t.status === 'complete').length;
  if (answered === 0) return [];
  const throughs = seeds.map((s) => 1 + (s.through % answered)).sort((a, b) => a - b);
  return seeds.map((s, i) => {
    const through = throughs[i];
    const previous = i > 0 ? throughs[i - 1] : 0;
    return {
      trigger: s.trigger,
      through,
      previous,
      kind: s.kind,
      turnsDropped: through - previous,
      outputsMasked: s.outputsMasked,
      tokensBefore: Math.max(...s.tokens),
      tokensAfter: Math.min(...s.tokens),
      summary: s.summary ? { ...s.summary, usage: { inputTokens: 120, outputTokens: 30, cachedReadTokens: 0, cacheWriteTokens: 0 } } : null,
      ...(s.fallback !== undefined ? { fallback: s.fallback } : {}),
      text: s.text,
      maskedThrough: through + (s.masked % (answered - through + 1)),
      masking: { maxOutputLines: 200, maxCodeLines: 500 },
      at: 1_700_000_001_500 + i,
      cost: s.cost,
    };
  });
}

export const conversation: fc.Arbitrary<Conversation> = fc
  .record({
    turns: fc.array(turn, { minLength: 1, maxLength: 5 }),
    title: fc.string({ minLength: 1, maxLength: 20 }),
    compactions: fc.array(compactionSeed, { maxLength: 3 }),
  })
  .map(({ turns, title, compactions }) => {
    const records = compactionsFor(turns, compactions);
    return chatWith({ id: 'chat-fuzz', title: title.trim() ? title : 'Untitled chat', turns, ...(records.length > 0 ? { compactions: records } : {}) });
  });

/** A saved chat with fixed times and an OpenAI model around the given turns (and any other fields). */
export function chatWith(fields: Pick<Conversation, 'id' | 'title' | 'turns'> & Partial<Conversation>): Conversation {
  return {
    titleSource: 'user',
    provider: 'openai',
    model: 'gpt-4o',
    mode: 'chat',
    created: 1_700_000_000_000,
    updated: 1_700_000_002_000,
    session: null,
    library: [],
    lastRequest: null,
    ...fields,
  };
}

export type Mutation =
  | { op: 'delete'; at: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'replace'; at: number; text: string }
  | { op: 'duplicate'; at: number }
  | { op: 'swap'; at: number; with: number }
  | { op: 'garble'; at: number; char: number; text: string }
  | { op: 'truncate'; at: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...NASTY_LINES), fc.string({ maxLength: 20 })) }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), text: fc.oneof(fc.constantFrom(...NASTY_LINES), fc.string({ maxLength: 20 })) }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ op: fc.constant('garble' as const), at: fc.nat(), char: fc.nat(), text: fc.string({ maxLength: 3 }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
);

/** Apply line mutations to a note. */
export function mutate(text: string, mutations: readonly Mutation[]): string {
  const lines = text.split('\n');
  for (const m of mutations) {
    if (lines.length === 0) break;
    const at = m.at % lines.length;
    switch (m.op) {
      case 'delete':
        lines.splice(at, 1);
        break;
      case 'insert':
        lines.splice(at, 0, m.text);
        break;
      case 'replace':
        lines[at] = m.text;
        break;
      case 'duplicate':
        lines.splice(at, 0, lines[at]);
        break;
      case 'swap': {
        const other = m.with % lines.length;
        [lines[at], lines[other]] = [lines[other], lines[at]];
        break;
      }
      case 'garble': {
        const l = lines[at];
        const c = l.length === 0 ? 0 : m.char % l.length;
        lines[at] = l.slice(0, c) + m.text + l.slice(c + 1);
        break;
      }
      case 'truncate':
        lines.splice(Math.max(1, at));
        break;
    }
  }
  return lines.join('\n');
}
