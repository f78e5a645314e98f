import type { VaultReader } from '../ports/vault';
import type { EngineOptions, EngineState, PromptContextEngine } from '../engine/engine';
import type { TurnAssembly } from '../engine/turnAssembly';
import { ChatArchive } from './archive';
import type { Clock } from '../ports/clock';
import type { CompactionEvent } from './records/compaction';
import type { ChatTurn, CompactionRecord, Conversation, ProviderSession } from './model';
import { recordsFor } from './compactionRecords';
import { envelopeRecord, toRef } from './toRecords';
import { imageRefOf } from '../engine/images';
import { rehydrate, type RehydrationIssue } from './rehydrate';
import type { ChatNoteStore } from '../ports/chatNoteStore';
import { MemoryChatStore } from './store';

export interface ConversationFields {
  readonly id: string;
  readonly title?: string;
  readonly provider: string;
  readonly model: string;
  readonly mode?: string;
  readonly session?: ProviderSession | null;
}

/**
 * A conversation recording an engine's state (tools, scripts and tests: the plugin builds its
 * conversation turn by turn with the transitions). `assemblies[i]`, when given, adds turn i's
 * envelope record. Times come from the clock, one tick per message, so output is reproducible.
 * The engine keeps only its latest compaction: `compactions` (records, or the events a replay
 * reported, oldest first) makes the chat's record of them complete (see recordsFor); without them
 * the latest is recorded with neutral figures.
 */
export function conversationFromEngine(
  state: EngineState,
  fields: ConversationFields,
  clock: Clock,
  assemblies: readonly TurnAssembly[] = [],
  compactions?: readonly (CompactionEvent | CompactionRecord)[],
): Conversation {
  const created = clock.now();
  const turns: ChatTurn[] = state.turns.map((t, i) => {
    const assembly = assemblies[i];
    return {
      status: 'complete',
      text: t.userText,
      at: clock.now(),
      reply: t.reply,
      replyAt: clock.now(),
      model: t.model,
      dynamic: t.dynamic,
      tools: t.tools,
      referenced: t.referenced,
      problems: t.problems,
      ...(t.images && t.images.length > 0 ? { images: t.images.map(imageRefOf) } : {}),
      ...(assembly ? { envelope: envelopeRecord(assembly) } : {}),
    };
  });
  const first = turns[0]?.text;
  const updated = clock.now();
  const records = recordsFor(state.compaction ?? null, compactions, updated);
  return {
    id: fields.id,
    title: fields.title ?? (first !== undefined ? first.split(/\s+/).slice(0, 8).join(' ') || 'New chat' : 'New chat'),
    titleSource: fields.title ? 'user' : 'first-message',
    provider: fields.provider,
    model: fields.model,
    mode: fields.mode ?? 'chat',
    created,
    updated,
    session: fields.session ?? null,
    turns,
    library: state.library.map(toRef),
    lastRequest: state.lastRequest ?? null,
    ...(state.pending && state.pending.length > 0 ? { pending: state.pending } : {}),
    ...(records.length > 0 ? { compactions: records } : {}),
    ...(state.libraryCondensing && state.libraryCondensing.entries.length > 0 ? { condensedLibrary: state.libraryCondensing } : {}),
  };
}

export interface Reloaded {
  readonly engine: PromptContextEngine;
  /** The chat note as saved. */
  readonly text: string;
  readonly warnings: readonly string[];
  readonly issues: readonly RehydrationIssue[];
  readonly edited: readonly string[];
}

/**
 * Save an engine's conversation as a chat note and open it again, through the store, the codec and
 * rehydration, as closing and reopening the chat would. The inspector's --reload-every-turn.
 */
export async function reloadThroughNote(
  engine: PromptContextEngine,
  vault: VaultReader,
  fields: ConversationFields,
  options: EngineOptions & { clock?: Clock; store?: ChatNoteStore; compactions?: readonly (CompactionEvent | CompactionRecord)[] } = {},
): Promise<Reloaded> {
  let tick = 0;
  const clock = options.clock ?? { now: () => 1_700_000_000_000 + 1000 * tick++ };
  const store = options.store ?? new MemoryChatStore();
  const archive = new ChatArchive(store, clock);
  const conversation = conversationFromEngine(engine.snapshot(), fields, clock, [], options.compactions);
  const { path } = await archive.save(conversation);
  const loaded = await archive.loadPath(path);
  const restored = await rehydrate(loaded.conversation, vault, {
    rendering: options.rendering ?? engine.renderingMode,
    freshness: options.freshness ?? engine.freshness,
  });
  return {
    engine: restored.engine,
    text: (await store.read(path)) ?? '',
    warnings: loaded.warnings,
    issues: restored.issues,
    edited: restored.edited,
  };
}

