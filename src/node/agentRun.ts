/**
 * Agent turns replayed offline, for the bench and the prompt inspector: the real controller and turn
 * pipeline, real LangChain clients over HTTP to an in-process local provider server (whose tool calls
 * the messages script with `[[tool NAME {...}]]` lines), the real tools over a vault folder with a
 * real VaultIndex, the chat-note archive in memory. Reports each model call of each turn: what Strata
 * counted, what the provider read, and how much of it came from the prompt cache.
 */
import { ChatController } from '../core/chat/chatController';
import type { ContextChip } from '../core/context/items';
import { ChatArchive } from '../core/conversation/archive';
import { MemoryChatStore } from '../core/conversation/store';
import { loadSettings, type StrataSettings } from '../core/settings/settings';
import { VaultIndex } from '../core/search/vaultIndex';
import { cachedShare } from '../core/usage';
import { createProvider } from '../providers';
import { FsVault } from './fsVault';
import { startProviderServer } from '../../testing/providerServer';
import { fsToolHost } from './toolHost';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FsNoteWriter } from './fsNoteWriter';
import { diffText } from '../core/edits/diffText';
import type { ProposalReviewer } from '../core/edits/proposal';

export const AGENT_APIS = ['openai', 'openai-responses', 'anthropic', 'gemini'] as const;
export type AgentApi = (typeof AGENT_APIS)[number];

/** One model call of an agent turn. */
export interface AgentStepFigures {
  readonly step: number;
  /** Tools the model asked for in this call (none: it answered). */
  readonly calls: readonly string[];
  /** The request as Strata counted it (what the budget checked). */
  readonly promptTokens: number;
  /** What the provider reported: every prompt token, and those read from its cache. */
  readonly inputTokens: number;
  readonly cachedTokens: number;
  readonly cachedShare: number;
}

export interface AgentRunFigures {
  readonly turn: number;
  readonly steps: readonly AgentStepFigures[];
  readonly reply: string;
}

export interface AgentRun {
  readonly api: AgentApi;
  readonly model: string;
  readonly turns: readonly AgentRunFigures[];
  /** With `edits`: each proposal the agent made, as a diff, and what became of it. */
  readonly edits?: readonly { readonly summary: string; readonly status: string; readonly diff: string }[];
}

/** How an offline run answers the agent's edit proposals: accept every hunk, or reject them all. */
export type EditAnswer = 'accept' | 'reject';

const MODELS: Record<AgentApi, string> = { openai: 'gpt-4o', 'openai-responses': 'gpt-4o', anthropic: 'claude-sonnet-4-5', gemini: 'gemini-2.5-flash' };

/** One message of the chat, with what it attaches. */
export interface AgentMessage {
  readonly text: string;
  readonly chips?: readonly ContextChip[];
}

/** Run `messages` as agent turns of one chat on `api`; throws if a turn does not complete. */
export async function runAgentTurns(api: AgentApi, sourceDir: string, messages: readonly (string | AgentMessage)[], options: { readonly edits?: EditAnswer } = {}): Promise<AgentRun> {
  const server = await startProviderServer();
  // Edits go to a copy of the vault: an offline run never changes the scenario's notes.
  const vaultDir = options.edits ? await mkdtemp(path.join(tmpdir(), 'strata-agent-')) : sourceDir;
  if (options.edits) await cp(sourceDir, vaultDir, { recursive: true });
  const edits: { summary: string; status: string; diff: string }[] = [];
  try {
    const model = MODELS[api];
    const settings = agentSettings(api, server.url, model);
    const vault = new FsVault(vaultDir);
    const writer = new FsNoteWriter(vaultDir, { changed: () => vault.forgetListing() });
    const reviewer: ProposalReviewer = {
      review: (proposal) => {
        const action = options.edits === 'accept' ? ('accept' as const) : ('reject' as const);
        const ids = proposal.hunks.length > 0 ? proposal.hunks.map((h) => h.id) : ['all'];
        edits.push({ summary: proposal.summary, status: action === 'accept' ? 'accepted' : 'rejected', diff: diffText(proposal) });
        return Promise.resolve({ decisions: ids.map((hunkId) => ({ hunkId, action })), ...(action === 'reject' ? { reason: 'rejected by --edits reject' } : {}) });
      },
    };
    const index = new VaultIndex(vault, { excludedFolders: [settings.chatFolder] });
    await index.build({ pause: () => Promise.resolve() });
    let clock = 1_700_000_000_000;
    const now = () => (clock += 1000);
    const controller = new ChatController({
      vault,
      archive: new ChatArchive(new MemoryChatStore(), { now }, settings.chatFolder),
      providers: (p, m) => createProvider({ id: p.id, kind: p.kind, model: m, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), ...(p.secretId ? { secretId: p.secretId } : {}) }, { getSecret: () => 'local-key', fetch }),
      settings: () => settings,
      now,
      newId: () => 'agent-run',
      toolHost: () => fsToolHost({ vault, search: index, hidden: [settings.chatFolder] }),
      ...(options.edits ? { writer: () => writer, reviewer: () => reviewer } : {}),
    });
    const turns: AgentRunFigures[] = [];
    for (const message of messages) {
      const { text, chips = [] } = typeof message === 'string' ? { text: message } : message;
      await controller.send(text, chips);
      const turn = controller.state.conversation.turns.at(-1);
      if (!turn || turn.status !== 'complete') throw new Error(`agent turn ${turns.length + 1} on ${api} did not complete: ${turn?.error ?? 'no turn'}`);
      turns.push({
        turn: turns.length + 1,
        reply: turn.reply ?? '',
        steps: (turn.agent?.steps ?? []).map((s, i) => ({
          step: i + 1,
          calls: s.calls.map((c) => c.name),
          promptTokens: s.promptTokens,
          inputTokens: s.usage.inputTokens,
          cachedTokens: s.usage.cachedReadTokens,
          cachedShare: cachedShare(s.usage),
        })),
      });
    }
    await controller.flush();
    return { api, model, turns, ...(options.edits ? { edits } : {}) };
  } finally {
    await server.close();
    if (vaultDir !== sourceDir) await rm(vaultDir, { recursive: true, force: true });
  }
}

function agentSettings(api: AgentApi, url: string, model: string): StrataSettings {
  const { settings } = loadSettings({
    providers: [{ id: 'local', kind: api, name: 'Local', baseUrl: api === 'anthropic' || api === 'gemini' ? url : `${url}/v1`, models: [model], secretId: 'local' }],
    defaultProviderId: 'local',
    defaultModel: model,
    defaultMode: 'agent',
    generateTitles: false,
    // The run's reviewer answers every proposal (accept or reject, by --edits).
    agentWritePolicy: { mode: 'ask', folders: [] },
  });
  return settings;
}

/** The bench's and the README's agent chat over the example vault: two turns, four tool steps then one. */
export const AGENT_BENCH_MESSAGES: readonly string[] = [
  [
    '[[tool localSearch {"query":"vent openers without electricity"}]]',
    '[[tool readNote {"path":"Projects/Greenhouse/Ventilation.md"}]]',
    '[[tool listFolder {"path":"Projects/Greenhouse"}]]',
    '[[tool getBacklinks {"path":"Projects/Greenhouse/Plan.md"}]]',
    'Which vent openers work without electricity, and where is the plan discussed?',
  ].join('\n'),
  ['[[tool readNote {"path":"Projects/Greenhouse/Plan.md","heading":"Budget"}]]', 'And what is the budget for them?'].join('\n'),
];
