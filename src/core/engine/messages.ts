export type Role = 'system' | 'user' | 'assistant';

/** A provider message with string content, as a stateless provider receives it. */
export interface ChatMessage {
  readonly role: Role;
  readonly content: string;
}

export function messagesEqual(a: ChatMessage, b: ChatMessage): boolean {
  return a.role === b.role && a.content === b.content;
}
