import type { SummaryCache } from '../../../src/core/planning/summaryCache';
import { ChatController, type ChatControllerDeps } from '../../../src/core/chat/chatController';
import { type ProviderFactory } from '../../../src/core/ports/providerFactory';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { decodeChatNote } from '../../../src/core/conversation/codec';
import type { Conversation } from '../../../src/core/conversation/model';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { loadSettings, type StrataSettings } from '../../../src/core/settings/settings';
import { FsVault } from '../../../src/node/fsVault';
import { costOf, createProvider } from '../../../src/providers';
import { MemoryChatModel } from '../../helpers/memoryChatModel';

import { VAULT } from '../../helpers/paths';

export { VAULT };
export const PLAN = 'Projects/Greenhouse/Plan.md';
export const VENT = 'Projects/Greenhouse/Ventilation.md';
export const KEY = 'sk-test-local-0123456789';

/** The chat-note store, able to fail its next writes (a full disk, a sync lock). */
export class NoteFiles extends MemoryChatStore {
  failNext = 0;
  writes = 0;
  private gate: Promise<void> | null = null;

  override create(p: string, text: string): Promise<void> {
    return this.fail() ?? this.held(() => (this.writes++, super.create(p, text)));
  }

  override process(p: string, update: (current: string) => string): Promise<string> {
    return this.fail() ?? this.held(() => (this.writes++, super.process(p, update)));
  }

  /** Hold every write from now on (a slow disk, a sync lock) until the returned function is called. */
  hold(): () => void {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.gate = gate;
    return () => {
      if (this.gate === gate) this.gate = null;
      release();
    };
  }

  private held<T>(write: () => Promise<T>): Promise<T> {
    return this.gate ? this.gate.then(write) : write();
  }

  private fail(): Promise<never> | null {
    if (this.failNext <= 0) return null;
    this.failNext--;
    return Promise.reject(new Error('disk full'));
  }

  /** Every chat note, decoded. */
  chats(): Conversation[] {
    return [...this.files.entries()].map(([p, text]) => decodeChatNote(text, { id: p, now: 0 }).conversation);
  }

  chat(id: string): Conversation | undefined {
    return this.chats().find((c) => c.id === id);
  }

  /** The text of the only chat note. */
  only(): string {
    const texts = [...this.files.values()];
    if (texts.length !== 1) throw new Error(`expected one chat note, found ${texts.length}`);
    return texts[0];
  }
}

export function settingsFor(baseUrl: string, kind: 'openai' | 'anthropic' | 'openai-responses' = 'openai', secretId = 'local-key'): StrataSettings {
  const { settings, warnings } = loadSettings({
    providers: [
      {
        id: 'local',
        kind,
        name: 'Local',
        baseUrl: kind === 'anthropic' ? baseUrl : `${baseUrl}/v1`,
        models: [kind === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o'],
        secretId,
      },
    ],
    defaultProviderId: 'local',
    defaultModel: kind === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o',
    // These chats count their requests and saves exactly: no generated title (titles.test.ts turns it on).
    generateTitles: false,
  });
  if (warnings.length > 0) throw new Error(warnings.join('\n'));
  return settings;
}

/** Real LangChain clients over HTTP (to the local provider server). */
export const httpProviders: ProviderFactory = (p, model) =>
  createProvider(
    { id: p.id, kind: p.kind, model, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), ...(p.secretId ? { secretId: p.secretId } : {}) },
    { getSecret: (id) => (id === 'local-key' ? KEY : null), retry: { baseDelayMs: 1, maxDelayMs: 2 } },
  );

/** One in-memory model for every configured provider and model. */
export function memoryProviders(model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' })): { providers: ProviderFactory; model: MemoryChatModel } {
  return { providers: () => model, model };
}

export interface Harness {
  readonly controller: ChatController;
  readonly files: NoteFiles;
  readonly archive: ChatArchive;
  readonly deps: ChatControllerDeps;
}

/**
 * A controller over the real chat-note archive (codec, merge, rehydration) in memory, the example
 * vault on disk, a ticking clock and scripted ids.
 */
export function makeController(
  settings: StrataSettings,
  options: { providers?: ProviderFactory; files?: NoteFiles; ids?: string[]; vault?: FsVault; summaryCache?: SummaryCache } = {},
): Harness {
  let clock = 1_700_000_000_000;
  const now = () => (clock += 1000);
  const files = options.files ?? new NoteFiles();
  const archive = new ChatArchive(files, { now }, settings.chatFolder);
  const queue = [...(options.ids ?? ['chat-a', 'chat-b', 'chat-c'])];
  const deps: ChatControllerDeps = {
    vault: options.vault ?? new FsVault(VAULT),
    archive,
    providers: options.providers ?? httpProviders,
    settings: () => settings,
    now,
    newId: () => queue.shift() ?? 'chat-z',
    costOf: (model, usage) => costOf(model, usage)?.usd ?? null,
    // A turn's words are written with its end (one write per turn) unless a test flushes mid-request: counts stay exact however slow the machine.
    wordsSaveDelayMs: 60_000,
    ...(options.summaryCache ? { summaryCache: options.summaryCache } : {}),
  };
  return { controller: new ChatController(deps), files, archive, deps };
}
