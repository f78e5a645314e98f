import type { ChatMessage } from './messages';
import type { Envelope, PrefixChange } from './types';

/** One turn, assembled: the envelope, the messages a stateless provider gets, and the prefix verdict. */
export interface TurnAssembly {
  readonly envelope: Envelope;
  readonly messages: ChatMessage[];
  /** sha256 of each message's role and content. */
  readonly messageHashes: readonly string[];
  readonly promptTokens: number;
  /** Hash of every message before the final user message: what a prefix cache can serve. */
  readonly prefixHash: string;
  /** Null when this request extends the previous one; otherwise the named reason. */
  readonly prefixChange: PrefixChange | null;
}
