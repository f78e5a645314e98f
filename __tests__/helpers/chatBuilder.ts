import type { ContextChip } from '../../src/core/context/items';
import type { Clock } from '../../src/core/ports/clock';
import { completedBefore, type Conversation, type TitleSource } from '../../src/core/conversation/model';
import { addUserMessage, completeTurn, failTurn, setTitle, truncateFrom, withEngine, type Answer } from '../../src/core/conversation/transitions';
import type { PromptContextEngine, TurnAssembly } from '../../src/core/engine/engine';

/**
 * A conversation and its engine kept in step through the same pure transitions the chat controller
 * uses (addUserMessage, completeTurn then engine.commit, failTurn, truncateFrom with engine.truncate),
 * for tests that build chats turn by turn without a provider.
 */
export class ChatBuilder {
  constructor(
    public conversation: Conversation,
    readonly engine: PromptContextEngine,
    private readonly clock: Clock,
  ) {}

  addUserMessage(text: string, options: { sent?: string; chips?: readonly ContextChip[] } = {}): number {
    const added = addUserMessage(this.conversation, { text, ...options, at: this.clock.now() });
    this.conversation = added.conversation;
    return added.index;
  }

  /** The text the engine should get as L5 for a turn. */
  sentText(index: number): string {
    const turn = this.conversation.turns[index];
    return turn.sent ?? turn.text;
  }

  completeTurn(index: number, assembly: TurnAssembly, reply: string, outcome: Omit<Answer, 'assembly' | 'reply' | 'replyAt'> = {}): void {
    const done = completeTurn(this.conversation, index, { assembly, reply, replyAt: this.clock.now(), ...outcome });
    this.engine.commit(assembly, reply);
    this.conversation = withEngine(done, this.engine.snapshot());
  }

  failTurn(index: number, error: string): void {
    this.conversation = failTurn(this.conversation, index, { status: 'failed', error, at: this.clock.now() });
  }

  truncateFrom(index: number): void {
    this.engine.truncate(completedBefore(this.conversation.turns, index));
    this.conversation = withEngine(truncateFrom(this.conversation, index, this.clock.now()), this.engine.snapshot());
  }

  setTitle(title: string, source: TitleSource): void {
    this.conversation = setTitle(this.conversation, title, source, this.clock.now());
  }
}
