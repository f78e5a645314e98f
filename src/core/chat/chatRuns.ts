import type { ContextChip } from '../context/items';
import type { ChipResolver } from '../context/resolver';
import { withPageText, type UrlChip } from '../context/urlChip';
import type { ToolHost } from '../ports/toolHost';
import type { EditSession } from '../edits/editSession';
import type { ChatEdits } from './editActions';
import type { LiveChat } from '../conversation/liveChat';
import type { CompactionEvent } from '../conversation/records/compaction';
import type { StrataSettings } from '../settings/settings';
import type { SummaryCache } from '../planning/summaryCache';
import { EXPENSIVE_INPUT_PRICE } from '../planning/shouldPlan';
import { chatFolders, findProject, projectScope } from '../projects/projects';
import { CondenseActivity, type ActivityChange, type ChatActivity } from './activity';
import type { ChatSaves } from './chatSaves';
import type { ChatTitler } from './chatTitler';
import { condensedMessage, omittedWarning, recordCompaction } from './compactions';
import { WORDS_SAVE_DELAY_MS, type ChatControllerDeps } from './controllerDeps';
import { isAbort, userFacingError } from './errors';
import { condenseNext, type NextRequest } from './turnPipeline';
import { TurnRun, type RunDeps } from './turnRun';
import { withoutSources, withWarnings, type ChatWarning } from './warnings';

/** What running turns reads and changes of the controller. */
export interface RunsHost {
  shown(): LiveChat;
  emit(change?: ActivityChange): void;
  warnings(): ChatWarning[];
  setWarnings(warnings: ChatWarning[]): void;
  /** Measure the next request again (a turn or a condense of the chat shown ended). */
  previewNext(): void;
}

/** Runs as a turn settles, on its chat: a save it returns is the turn's last. */
export type Settle = (chat: LiveChat) => Promise<void> | null;

export interface ChatRunsDeps {
  readonly host: ChatControllerDeps;
  readonly resolver: ChipResolver;
  readonly saves: ChatSaves;
  readonly titler: ChatTitler;
  readonly summaryCache: SummaryCache;
  /** The chats' edits to notes: each agent turn's write session (issue 28). */
  readonly edits?: ChatEdits;
}

/**
 * What runs on the chats, by chat id: turns (TurnRun) and condensing on request. It starts them,
 * lets the view hear the one of the chat shown, and settles each in its own chat (saved, titled):
 * a chat left behind finishes in the background. Several chats may run at once.
 */
export class ChatRuns {
  private readonly activities = new Map<string, ChatActivity>();
  /** Turns still settling, by chat id: a stopped turn of a chat left behind ends in that chat, in the background. */
  private readonly settling = new Map<string, Promise<void>>();
  /** Web pages sent with `@`, by URL, with their text: a turn keeps only the address (withPageText). */
  private readonly pages = new Map<string, UrlChip>();

  constructor(
    private readonly deps: ChatRunsDeps,
    private readonly host: RunsHost,
  ) {}

  /** What runs on chat `id` for the view, if anything. */
  running(id: string): ChatActivity | undefined {
    return this.activities.get(id);
  }

  /** Resolves once chat `id`'s turn, if any, has settled (reopening it waits for that). */
  settled(id: string): Promise<void> | undefined {
    return this.settling.get(id);
  }

  /** The chat is left: what runs on it stops and settles in the background; the view no longer hears it. */
  leave(id: string): void {
    this.activities.get(id)?.stop();
    this.activities.delete(id);
  }

  /** Page texts of the `@` web pages among these chips, kept for the turns that send them. */
  rememberPages(chips: readonly ContextChip[]): void {
    for (const chip of chips) if (chip.kind === 'url' && chip.content !== undefined) this.pages.set(chip.url, chip);
  }

  /**
   * Run turn `index` of `chat`. Resolves once it is settled in its chat and saved, and titled after a
   * first answer. `settle` runs as it settles, on the chat it belongs to; a save it returns replaces the turn's.
   */
  start(chat: LiveChat, index: number, settle?: Settle): Promise<void> {
    const id = chat.id;
    let saved: Promise<void> = Promise.resolve();
    const settled: Promise<void> = this.turn(chat, index)
      .then((s) => void (saved = settle?.(chat) ?? s))
      .finally(() => {
        if (this.settling.get(id) === settled) this.settling.delete(id);
      });
    this.settling.set(id, settled);
    // The title comes after the turn (the chat is idle meanwhile; switching does not wait for it).
    return settled.then(() => saved).then(() => this.nameChat(chat));
  }

  /**
   * Condense `chat` now, measured on `next` (its next request as the usage line shows it). Stop stops
   * it (nothing changes). Returns what happened, in words.
   */
  async condense(chat: LiveChat, next: NextRequest): Promise<string> {
    const activity = new CondenseActivity(chat.id);
    const end = this.begin(activity);
    try {
      const deps = { resolver: this.deps.resolver, settings: this.deps.host.settings(), providers: this.deps.host.providers, signal: activity.signal };
      const event = await condenseNext(next, chat.engine, deps);
      if (event) this.compacted(chat, event);
      return condensedMessage(event);
    } catch (error) {
      if (isAbort(error, activity.signal)) return 'Condense stopped: nothing changed.';
      throw new Error(`Could not condense: ${userFacingError(error)}`);
    } finally {
      // Switching chats stopped it: the chat shown now is not this one's to update.
      const shown = this.activities.get(chat.id) === activity;
      end();
      if (shown) {
        this.host.emit();
        this.host.previewNext();
      }
    }
  }

  /** Planning pays for itself on an expensive model (seed 004): from EXPENSIVE_INPUT_PRICE per input token. */
  expensive(model: string): boolean {
    const perMillion = this.deps.host.costOf?.(model, { inputTokens: 1_000_000, outputTokens: 0, cachedReadTokens: 0, cacheWriteTokens: 0 });
    return typeof perMillion === 'number' && perMillion / 1_000_000 >= EXPENSIVE_INPUT_PRICE;
  }

  /** `activity` starts on its chat: the view hears it while that chat is shown. Returns its end. */
  private begin(activity: ChatActivity): () => void {
    this.activities.set(activity.chatId, activity);
    const shown = () => this.activities.get(this.host.shown().id) === activity;
    const unsubscribe = activity.subscribe((change) => {
      if (shown()) this.host.emit(change);
    });
    this.host.emit();
    return () => {
      unsubscribe();
      if (this.activities.get(activity.chatId) === activity) this.activities.delete(activity.chatId);
    };
  }

  /**
   * One turn of `chat`, which may stop being the chat shown while it runs (switching stops its
   * request): it then settles and saves into `chat` only. Returns the turn's last save.
   */
  private async turn(chat: LiveChat, index: number): Promise<Promise<void>> {
    const deps = this.deps.host;
    const run = new TurnRun(chat, index);
    const end = this.begin(run);
    // The user's words are saved before anything can fail (a crash mid-request keeps them); a quick
    // reply or failure saves them with itself, in one write.
    void this.deps.saves.save(chat, deps.wordsSaveDelayMs ?? WORDS_SAVE_DELAY_MS);
    let answered = false;
    try {
      answered = await run.run(this.runDeps(chat, index));
    } catch (error) {
      // run() itself never throws: what failed is gathering what the turn needs (settings, search, tools).
      run.fail(error, deps.now());
    }
    const shown = chat === this.host.shown();
    // Notices about the state before this turn (a removed item, what reopening found) are now on the turn itself.
    if (answered && shown) this.host.setWarnings(withoutSources(this.host.warnings(), 'library', 'reopened', 'regenerate'));
    end();
    if (shown) {
      this.host.emit();
      this.host.previewNext();
    }
    return this.deps.saves.save(chat);
  }

  /** What turn `index` of `chat` needs, read as it starts (settings, search and tools at this moment). */
  private runDeps(chat: LiveChat, index: number): RunDeps {
    const deps = this.deps.host;
    const settings = deps.settings();
    const c = chat.conversation;
    return {
      settings,
      resolver: this.deps.resolver,
      providers: deps.providers,
      now: deps.now,
      ...(deps.costOf ? { costOf: deps.costOf } : {}),
      chips: withPageText(c.turns[index].chips ?? [], this.pages, c.library),
      planning: { cache: this.deps.summaryCache, expensive: (model) => this.expensive(model) },
      search: deps.search?.() ?? null,
      ...this.toolHostFor(settings, c.project),
      ...this.editsFor(chat, settings),
      onCompacted: (event) => this.compacted(chat, event),
    };
  }

  /** After the first answer, a generated title (ChatTitler), shown if the chat is, and saved either way. */
  private async nameChat(chat: LiveChat): Promise<void> {
    if (!(await this.deps.titler.name(chat))) return;
    if (chat === this.host.shown()) this.host.emit();
    await this.deps.saves.save(chat);
  }

  /** A compaction was applied to the chat's engine: record it (with its summary's cost), say how it went, save. */
  private compacted(chat: LiveChat, event: CompactionEvent): void {
    if (!recordCompaction(chat, event, this.deps.host.now(), this.deps.host.costOf)) return;
    void this.deps.saves.save(chat);
    if (chat !== this.host.shown()) return;
    const omitted = omittedWarning(event);
    this.host.setWarnings(withWarnings(withoutSources(this.host.warnings(), 'condense'), omitted ? [{ source: 'condense', text: omitted }] : []));
    this.host.emit();
  }

  /** The write session of a turn (issue 28): none when the chat is read-only or nothing can write. */
  private editsFor(chat: LiveChat, settings: StrataSettings): { edits?: EditSession } {
    const edits = this.deps.edits?.sessionFor(chat, settings);
    return edits ? { edits } : {};
  }

  /**
   * The agent's tools for a turn: inside the project's folder when the chat has a project, never in
   * a folder chats are saved in (a project's chats folder is inside its scope).
   */
  private toolHostFor(settings: StrataSettings, projectId: string | undefined): { toolHost?: ToolHost } {
    const host = this.deps.host.toolHost?.();
    if (!host) return {};
    const scope = projectScope(findProject(settings, projectId));
    const hidden = [...new Set([...(host.hidden ?? []), ...chatFolders(settings)])];
    return { toolHost: { ...host, hidden, ...(scope ? { scope } : {}) } };
  }
}
