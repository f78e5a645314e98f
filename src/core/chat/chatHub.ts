import { ChipResolver } from '../context/resolver';
import type { ChatCheckpoint, LiveChat } from '../conversation/liveChat';
import type { EngineOptions } from '../engine/engine';
import type { Conversation } from '../conversation/model';
import { SummaryCache } from '../planning/summaryCache';
import { ChatRuns, type Settle } from './chatRuns';
import { ChatSaves } from './chatSaves';
import { ChatTitler } from './chatTitler';
import { ChatEdits } from './editActions';
import type { ChatControllerDeps } from './controllerDeps';
import type { HubView } from './hubView';
import { withoutSources, withWarnings } from './warnings';

/**
 * What every view of the plugin shares (issue 29: several chats at once): the chats open in memory
 * (one LiveChat per chat id, so two views on one chat show one chat, never two copies), what runs
 * on them (ChatRuns: a reply streams on whether or not its chat is shown) and their saves (each chat
 * its own note, one write at a time). A chat stays in memory while a view shows it or something runs
 * on it; after that, opening it again reads its note.
 */
export class ChatHub {
  readonly resolver: ChipResolver;
  readonly titler: ChatTitler;
  readonly saves: ChatSaves;
  readonly runs: ChatRuns;
  readonly summaryCache: SummaryCache;
  /** The chats' edits to notes (issue 28): write sessions, reviews waiting, undo. */
  readonly edits: ChatEdits;
  private readonly attached = new Set<HubView>();
  private readonly live = new Map<string, LiveChat>();
  private readonly watchers = new Set<() => void>();

  constructor(deps: ChatControllerDeps) {
    this.summaryCache = deps.summaryCache ?? new SummaryCache();
    this.resolver = new ChipResolver(deps.vault);
    this.titler = new ChatTitler(deps);
    this.saves = new ChatSaves(deps.archive, { live: (id) => this.live.get(id), views: (id) => this.views(id) });
    this.edits = new ChatEdits(deps, {
      save: (chat) => this.saves.save(chat),
      emit: (chat) => {
        for (const view of this.views(chat.id)) view.emit();
      },
    });
    this.runs = new ChatRuns(
      { host: deps, resolver: this.resolver, saves: this.saves, titler: this.titler, summaryCache: this.summaryCache, edits: this.edits },
      {
        views: (id) => this.views(id),
        activityChanged: () => {
          this.prune();
          for (const watcher of [...this.watchers]) watcher();
        },
      },
    );
  }

  /**
   * The settle of a regeneration: one that failed or was stopped must not cost the answer the user
   * already had; it is put back as the turn settles, before the chat can be reopened.
   */
  keepingAnswer(before: ChatCheckpoint, index: number, options: EngineOptions): Settle {
    return (chat) => {
      const retried = chat.conversation.turns[index];
      if (!retried || retried.status === 'complete') return null;
      chat.restore(before, options);
      const text = `Regenerate failed: ${retried.error ?? retried.status}; the previous answer is kept.`;
      for (const view of this.views(chat.id)) {
        view.setWarnings(withWarnings(withoutSources(view.warnings(), 'regenerate'), [{ source: 'regenerate', text }]));
        view.emit();
      }
      return this.saves.save(chat);
    };
  }

  /** A view comes (it shows its chat at once); returns its leaving. */
  attach(view: HubView): () => void {
    this.attached.add(view);
    this.hold(view.chat());
    return () => {
      this.attached.delete(view);
      this.prune();
    };
  }

  /** The views showing chat `id`, in the order they came; null: every view. */
  views(id: string | null): HubView[] {
    return [...this.attached].filter((view) => id === null || view.chat().id === id);
  }

  /** Chat `id` as it is in memory (shown by a view, or running), if it is. */
  chat(id: string): LiveChat | undefined {
    return this.live.get(id);
  }

  /** A view shows `chat` now; chats no view shows and nothing runs on leave memory. */
  hold(chat: LiveChat): void {
    this.live.set(chat.id, chat);
    this.prune();
  }

  /**
   * Change chat `id` where it is in memory (pinned, archived from the history): every view showing
   * it hears it, and it is saved. False when it is not in memory (the caller changes its note).
   */
  async update(id: string, change: (c: Conversation) => Conversation): Promise<boolean> {
    const chat = this.live.get(id);
    if (!chat) return false;
    chat.update(change);
    for (const view of this.views(id)) view.emit();
    await this.saves.save(chat);
    return true;
  }

  /** The chats something runs on (a reply, a condense). */
  running(): ReadonlySet<string> {
    return new Set(this.runs.runningIds());
  }

  /** Call `watcher` whenever a chat starts or stops running; returns its removal. */
  watchRuns(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private prune(): void {
    for (const id of [...this.live.keys()]) {
      if (this.views(id).length === 0 && this.runs.running(id) === undefined) this.live.delete(id);
    }
  }
}
