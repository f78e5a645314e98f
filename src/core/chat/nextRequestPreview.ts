import type { ContextChip } from '../context/items';
import type { ChipResolver } from '../context/resolver';
import type { InputBudget } from '../budget/budget';
import type { LiveChat } from '../conversation/liveChat';
import type { SummaryCache } from '../planning/summaryCache';
import type { ChatMode, StrataSettings } from '../settings/settings';
import { contextUsageOf, type ContextUsage } from './contextUsage';
import { previewTurn, type NextRequest } from './turnPipeline';

/** What the preview reads of the controller. */
export interface PreviewHost {
  shown(): LiveChat;
  /** Something runs on the chat shown (a turn, a condense): it measures again when it ends. */
  busy(): boolean;
  settings(): StrataSettings;
  budgetFor(model: string): InputBudget;
  expensive(model: string): boolean;
  /** A new figure for the chat shown. */
  changed(): void;
}

/**
 * The usage line's figure: the next request as it would go now (history, library, L1 and what the
 * composer holds), measured through the pipeline's previewTurn. A result for a chat no longer
 * shown, or overtaken by a turn, is dropped.
 */
export class NextRequestPreview {
  private next: { usage: ContextUsage; chat: LiveChat } | null = null;
  /** The composer's chips as last given: the controller's own previews (after a turn, a switch) count them too. */
  private given: readonly ContextChip[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly resolver: ChipResolver,
    private readonly cache: SummaryCache,
    private readonly host: PreviewHost,
  ) {}

  /** The next request of `chat` with the composer's chips (and its plan, when the preview plans it). */
  requestOf(chat: LiveChat, withPlan: boolean): NextRequest {
    const c = chat.conversation;
    return {
      providerId: c.provider,
      model: c.model,
      mode: c.mode as ChatMode,
      ...(c.project ? { project: c.project } : {}),
      chips: this.given,
      ...(withPlan && c.plan ? { plan: c.plan } : {}),
    };
  }

  /** The figure for `chat`, if it was measured for that chat. */
  usageFor(chat: LiveChat): ContextUsage | null {
    return this.next && this.next.chat === chat ? this.next.usage : null;
  }

  clear(): void {
    this.next = null;
  }

  /** The measure running now, if any (flush waits for it). */
  get pending(): Promise<void> | null {
    return this.running;
  }

  /** Measure again, with `chips` when given (what the composer holds), else with the chips given last. */
  measure(chips?: readonly ContextChip[]): Promise<void> {
    const run = this.run(chips);
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = null;
    });
    return run;
  }

  private async run(chips?: readonly ContextChip[]): Promise<void> {
    if (chips) this.given = [...chips];
    if (this.host.busy()) return;
    const host = this.host;
    const chat = host.shown();
    const turns = chat.engine.turnCount;
    const stale = () => chat !== host.shown() || chat.engine.turnCount !== turns || host.busy();
    try {
      const deps = { resolver: this.resolver, settings: host.settings(), cache: this.cache, expensive: (model: string) => host.expensive(model) };
      const assembly = await previewTurn(this.requestOf(chat, true), chat.engine, deps, stale);
      if (!assembly) return;
      this.next = { usage: contextUsageOf(assembly, host.budgetFor(chat.conversation.model)), chat };
      host.changed();
    } catch {
      // A preview is a hint: a note that cannot be read now is reported when the message is sent.
    }
  }
}
