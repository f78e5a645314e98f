import type { ContextChip } from '../../src/core/context/items';
import type { Clock } from '../../src/core/ports/clock';
import type { Conversation, TitleSource } from '../../src/core/conversation/model';
import { LiveChat } from '../../src/core/conversation/liveChat';
import { failTurn, setTitle, type Answer } from '../../src/core/conversation/transitions';
import type { PromptContextEngine } from '../../src/core/engine/engine';
import type { TurnAssembly } from '../../src/core/engine/turnAssembly';

/**
 * A conversation and its engine changed together through the LiveChat the chat controller uses
 * (addMessage, commit, truncateFrom, removeFromLibrary), for tests that build chats turn by turn
 * without a provider.
 */
export class ChatBuilder {
  private readonly chat: LiveChat;

  constructor(conversation: Conversation, engine: PromptContextEngine, private readonly clock: Clock) {
    this.chat = new LiveChat(conversation, engine);
  }

  get conversation(): Conversation {
    return this.chat.conversation;
  }

  get engine(): PromptContextEngine {
    return this.chat.engine;
  }

  addUserMessage(text: string, options: { sent?: string; chips?: readonly ContextChip[] } = {}): number {
    return this.chat.addMessage({ text, ...options, at: this.clock.now() });
  }

  /** The text the engine should get as L5 for a turn. */
  sentText(index: number): string {
    const turn = this.conversation.turns[index];
    return turn.sent ?? turn.text;
  }

  completeTurn(index: number, assembly: TurnAssembly, reply: string, outcome: Omit<Answer, 'assembly' | 'reply' | 'replyAt'> = {}): void {
    this.chat.commit(index, { assembly, reply, replyAt: this.clock.now(), ...outcome });
  }

  failTurn(index: number, error: string): void {
    this.chat.update((c) => failTurn(c, index, { status: 'failed', error, at: this.clock.now() }));
  }

  truncateFrom(index: number): void {
    this.chat.truncateFrom(index, this.clock.now());
  }

  removeFromLibrary(id: string): boolean {
    return this.chat.removeFromLibrary(id);
  }

  setTitle(title: string, source: TitleSource): void {
    this.chat.update((c) => setTitle(c, title, source, this.clock.now()));
  }
}
