/**
 * Conversations and chat notes: the API the chat view uses.
 *
 * Open a chat:      archive.load(path) → rehydrate(conversation, vault, engineOptions)
 *                   → new MessageRepository(conversation, engine, clock); show warnings and issues.
 * New chat:         new MessageRepository(newConversation({ provider, model }, clock), new PromptContextEngine(opts), clock)
 * Each turn:        i = repo.addUserMessage(text, { chips, sent? }); await archive.save(repo.conversation)
 *                   assembly = repo.engine.assemble({ userText: repo.sentText(i), … })
 *                   success: repo.completeTurn(i, assembly, reply, { usage, cost, session }); save
 *                   failure: repo.failTurn(i, message); save   (retry: assemble again, completeTurn(i, …))
 * Edit / regenerate: const turn = repo.truncateFrom(i); then addUserMessage(edited ?? turn.text, …)
 * Library edits:    repo.engine.removeFromLibrary(id) / compact(); repo.syncEngine(); save
 * Chat list:        archive.list() / search(q) / rename(path, title) / delete(path)
 * Copilot chats:    importCopilotChat(text, vault, clock) → archive.save(conversation)
 *
 * A save returns the conversation as written: when the note was edited in the editor meanwhile, the
 * user's edits are merged in (SaveResult.edited lists the turns); adopt it with `new
 * MessageRepository(result.conversation, repo.engine, clock)`.
 */
export { ChatArchive, DEFAULT_CHAT_FOLDER, type ChatSummary, type LoadedChat, type SaveResult } from './archive';
export { decodeChatNote, encodeChatNote, type DecodedChat } from './codec';
export { importCopilotChat, parseCopilotChat, type ImportedChat } from './copilotImport';
export {
  newConversation,
  titleFromText,
  type ChatTurn,
  type Clock,
  type Conversation,
  type EnvelopeRecord,
  type ItemRef,
  type ProviderSession,
  type TitleSource,
} from './model';
export { rehydrate, type Rehydrated, type RehydrationIssue } from './rehydrate';
export { MessageRepository, type DisplayMessage, type TurnOutcome } from './repository';
export { MemoryChatStore, type ChatStore } from './store';
