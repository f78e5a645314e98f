import type { LiveChat } from '../conversation/liveChat';
import { setGeneratedTitle } from '../conversation/transitions';
import type { StrataSettings } from '../settings/settings';
import type { Usage } from '../usage';
import type { ProviderFactory } from '../ports/providerFactory';
import { generateTitle, wantsTitle } from './titles';

export interface TitlerDeps {
  readonly providers: ProviderFactory;
  readonly settings: () => StrataSettings;
  readonly now: () => number;
  readonly costOf?: (model: string, usage: Usage) => number | null;
}

/** Title requests in flight, by chat id: reopening, renaming or deleting a chat cancels its own. */
export class ChatTitler {
  private readonly titling = new Map<string, AbortController>();

  constructor(private readonly deps: TitlerDeps) {}

  cancel(chatId: string): void {
    this.titling.get(chatId)?.abort();
  }

  /**
   * After the first answer: a short generated title, unless the setting is off or the user named the
   * chat. Any failure keeps the first-message title, silently. True when the chat got a title (the
   * caller shows and saves it, shown or not).
   */
  async name(chat: LiveChat): Promise<boolean> {
    const settings = this.deps.settings();
    if (!wantsTitle(settings, chat.conversation)) return false;
    const first = chat.conversation.turns.find((t) => t.status === 'complete');
    const id = chat.id;
    if (!first || this.titling.has(id)) return false;
    const abort = new AbortController();
    this.titling.set(id, abort);
    try {
      const { title, record } = await generateTitle(settings, chat.conversation, first, {
        providers: this.deps.providers,
        ...(this.deps.costOf ? { costOf: this.deps.costOf } : {}),
        signal: abort.signal,
      });
      // Renamed (or the first answer dropped) while the title was on its way: the user's choice stands.
      if (abort.signal.aborted || !wantsTitle(settings, chat.conversation)) return false;
      chat.update((c) => setGeneratedTitle(c, title, record, this.deps.now()));
      return true;
    } catch {
      // A title is a nicety: the first-message title stays and nothing is said.
      return false;
    } finally {
      if (this.titling.get(id) === abort) this.titling.delete(id);
    }
  }
}
