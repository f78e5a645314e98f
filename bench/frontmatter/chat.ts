import { ChipResolver } from '../../src/core/context/resolver';
import type { ContextChip } from '../../src/core/context/items';
import { bodyWithoutChatData } from '../../src/core/conversation/chatData';
import { encodeChatNote } from '../../src/core/conversation/codec';
import { splitFrontmatter } from '../../src/core/markdown/frontmatter';
import { newConversation, type Conversation } from '../../src/core/conversation/model';
import { LiveChat } from '../../src/core/conversation/liveChat';
import { DEFAULT_MASKING } from '../../src/core/engine/masking';
import type { VaultReader } from '../../src/core/ports/vault';
import { promptFragments } from '../../src/core/systemPrompt';

/**
 * A long chat as people make them, for measuring the chat note: one note attached per turn (every
 * third turn re-attaching an earlier one instead), now and then a selection, a folder or a URL, a
 * compaction at 60 % of the turns, usage and cost on every reply. Built through the engine and the
 * same transitions the chat controller uses, over an in-memory vault of ~2 KB notes.
 */

class MemoryVault implements VaultReader {
  constructor(private readonly files: ReadonlyMap<string, string>) {}
  read(path: string): Promise<string | null> {
    return Promise.resolve(this.files.get(path) ?? null);
  }
  listMarkdown(): Promise<string[]> {
    return Promise.resolve([...this.files.keys()].filter((p) => p.endsWith('.md')).sort());
  }
}

const AREAS = ['Projects/Greenhouse', 'Projects/Kitchen', 'Reading', 'Daily', 'Piano Lessons'];

function noteText(i: number): string {
  const para = `Entry ${i}: the plan for this week, what worked, what did not, and what to try next time. `;
  return `# Note ${i}\n\n${para.repeat(20)}\n\n- [ ] follow up on item ${i}\n- [x] checked ${i % 7}\n`;
}

export function benchVault(notes: number): { vault: VaultReader; paths: string[] } {
  const files = new Map<string, string>();
  const paths: string[] = [];
  for (let i = 0; i < notes; i++) {
    const p = `${AREAS[i % AREAS.length]}/Note ${String(i).padStart(4, '0')}.md`;
    files.set(p, noteText(i));
    paths.push(p);
  }
  return { vault: new MemoryVault(files), paths };
}

function chipsFor(t: number, paths: readonly string[]): ContextChip[] {
  if (t % 3 === 2 && t > 2) return [{ kind: 'note', path: paths[(t * 7) % t] }];
  const chips: ContextChip[] = [{ kind: 'note', path: paths[t % paths.length] }];
  if (t % 10 === 4) chips.push({ kind: 'selection', path: paths[(t + 1) % paths.length], fromLine: 3, toLine: 5 });
  if (t % 25 === 7) chips.push({ kind: 'folder', path: AREAS[t % AREAS.length] });
  return chips;
}

/** A chat of `turns` answered turns; the engine and the conversation as the controller would save them. */
export async function benchChat(turns: number): Promise<Conversation> {
  const { vault, paths } = benchVault(Math.max(turns, 10));
  const resolver = new ChipResolver(vault);
  const fragments = promptFragments();
  let at = Date.UTC(2026, 0, 1, 9);
  const chat = LiveChat.fresh(newConversation({ provider: 'openai', model: 'gpt-4o', id: 'chat-bench' }, { now: () => at }), {});
  const engine = chat.engine;
  const compactAt = Math.max(2, Math.floor(turns * 0.6));
  for (let t = 0; t < turns; t++) {
    const chips = chipsFor(t, paths);
    const index = chat.addMessage({ text: `Question ${t + 1}: what does this say about the plan, and what should I do next?`, chips, at: (at += 31_000) });
    const { items, problems } = await resolver.resolve(chips);
    const assembly = engine.assemble({ userText: chat.conversation.turns[index].text, items, problems, fragments, model: 'gpt-4o' });
    const reply = `Answer ${t + 1}. ${'The note sets out the plan; here is what it says, with a few practical suggestions. '.repeat(5)}`;
    const usage = { inputTokens: assembly.promptTokens, outputTokens: 120 + (t % 40), cachedReadTokens: Math.max(0, assembly.promptTokens - 900), cacheWriteTokens: 0 };
    chat.commit(index, { assembly, reply, replyAt: (at += 4_321), provider: 'openai', usage, cost: 0.0001 * (t + 1) });
    if (t + 1 === compactAt) {
      const through = t - 1;
      const compaction = { through, kind: 'summary' as const, text: `## Summary\n\nThe user worked through ${through} questions about their notes.`, maskedThrough: through, masking: DEFAULT_MASKING };
      chat.applyCompaction(compaction);
      const event = {
        trigger: 'auto' as const,
        through,
        previous: 0,
        kind: 'summary' as const,
        turnsDropped: through,
        outputsMasked: 0,
        tokensBefore: assembly.promptTokens,
        tokensAfter: 4000,
        summary: { provider: 'openai', model: 'gpt-4o-mini', usage: { inputTokens: 9000, outputTokens: 400, cachedReadTokens: 0, cacheWriteTokens: 0 }, calls: 1 },
      };
      chat.recordCompaction({ ...event, text: compaction.text, maskedThrough: through, masking: DEFAULT_MASKING, at: (at += 1000), cost: 0.002 });
    }
  }
  return chat.conversation;
}

export interface NoteSize {
  readonly turns: number;
  readonly frontmatterLines: number;
  readonly frontmatterBytes: number;
  /** The chat data callout (format 2; 0 in a format-1 note, whose frontmatter held it all). */
  readonly chatDataBytes: number;
  readonly noteBytes: number;
}

/** The chat note's size: its frontmatter (lines between the fences, and bytes with the fences), its chat data and the whole note. */
export function noteSize(turns: number, note: string): NoteSize {
  const { yaml, body } = splitFrontmatter(note);
  const lines = yaml === null ? 0 : yaml.split('\n').length - (yaml.endsWith('\n') ? 1 : 0);
  const frontmatterBytes = yaml === null ? 0 : Buffer.byteLength(`---\n${yaml}---\n`);
  const chatDataBytes = Buffer.byteLength(body) - Buffer.byteLength(bodyWithoutChatData(body));
  return { turns, frontmatterLines: lines, frontmatterBytes, chatDataBytes, noteBytes: Buffer.byteLength(note) };
}

export async function measureNoteSizes(counts: readonly number[]): Promise<NoteSize[]> {
  const out: NoteSize[] = [];
  for (const turns of counts) out.push(noteSize(turns, encodeChatNote(await benchChat(turns))));
  return out;
}
