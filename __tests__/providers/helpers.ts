import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatMessage } from '../../src/core/engine/messages';
import type { ProviderServer } from '../../testing/providerServer';
import { createProvider, type ProviderDeps } from '../../src/providers/createProvider';
import type { ChatProvider, ProviderConfig, ProviderKind } from '../../src/core/ports/chatModel';
import { VAULT } from '../helpers/paths';

/** A real note from the project's vault (a few thousand tokens: past every provider's cache minimum). */
export const NOTE_PATH = 'Tasks/Writing a task.md';
export const NOTE_TEXT = readFileSync(path.join(VAULT, NOTE_PATH), 'utf8');
export const SECOND_NOTE_PATH = 'Tasks/Priorities.md';
export const SECOND_NOTE_TEXT = readFileSync(path.join(VAULT, SECOND_NOTE_PATH), 'utf8');

export const API_KEY = 'sk-test-STRATA-SECRET-0123456789';

export const MODELS: Readonly<Record<Exclude<ProviderKind, 'claude-code' | 'codex'>, string>> = {
  openai: 'gpt-4o-mini',
  'openai-compatible': 'llama3.1:8b',
  'openai-responses': 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-20250514',
  gemini: 'gemini-2.5-flash',
};

/** The base URL a user would enter for each kind (OpenAI-style ".../v1"; Anthropic the host). */
export function baseUrlFor(server: ProviderServer, kind: ProviderKind): string {
  return kind === 'anthropic' || kind === 'gemini' ? server.url : `${server.url}/v1`;
}

export function configFor(server: ProviderServer, kind: Exclude<ProviderKind, 'claude-code' | 'codex'>, extra: Partial<ProviderConfig> = {}): ProviderConfig {
  return { id: `test-${kind}`, kind, model: MODELS[kind], baseUrl: baseUrlFor(server, kind), secretId: 'key', ...extra };
}

/** Tests never wait for backoff: the requested delays are recorded instead. */
export function recordingSleep(): { sleep: NonNullable<ProviderDeps['sleep']>; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms, signal) => {
      waits.push(ms);
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      return Promise.resolve();
    },
  };
}

export function providerFor(
  server: ProviderServer,
  kind: Exclude<ProviderKind, 'claude-code' | 'codex'>,
  deps: Partial<ProviderDeps> = {},
  extra: Partial<ProviderConfig> = {},
): ChatProvider {
  return createProvider(configFor(server, kind, extra), { getSecret: () => API_KEY, fetch, sleep: recordingSleep().sleep, ...deps });
}

export function noteBlock(id: string, text: string): string {
  return `<note_context id="${id}">\n${text}\n</note_context>`;
}

/** A first turn: system prompt, then the user message with a note and a question. */
export function firstTurn(question: string): ChatMessage[] {
  return [
    { role: 'system', content: 'You are Strata, a careful assistant for an Obsidian vault. Answer from the notes given.' },
    { role: 'user', content: `${noteBlock(NOTE_PATH, NOTE_TEXT)}\n\n${question}` },
  ];
}

/** The second turn of the same chat: the first turn, its reply, then a new note and question. */
export function secondTurn(first: ChatMessage[], reply: string, question: string): ChatMessage[] {
  return [...first, { role: 'assistant', content: reply }, { role: 'user', content: `${noteBlock(SECOND_NOTE_PATH, SECOND_NOTE_TEXT)}\n\n${question}` }];
}
