import type { LiveChat } from '../conversation/liveChat';
import type { ActivityChange } from './activity';
import type { ChatWarning } from './warnings';

/**
 * One view onto the chats (a controller: a sidebar, a tab, a split): the chat it shows and what it
 * says. Runs and saves are shared by every view; what happens on a chat is told to each view showing it.
 */
export interface HubView {
  /** The chat it shows: the same LiveChat for every view on that chat. */
  chat(): LiveChat;
  /** Its chat changed ('stream': only the streamed text). */
  emit(change?: ActivityChange): void;
  warnings(): ChatWarning[];
  setWarnings(warnings: ChatWarning[]): void;
  /** Measure its next request again (a turn or a condense of its chat ended). */
  previewNext(): void;
  /** Its chat was deleted (here or from another view): it shows a new chat. */
  removed(): void;
}
