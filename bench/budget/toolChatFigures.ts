import { existsSync } from 'node:fs';
import path from 'node:path';
import { inputBudget, type InputBudget } from '../../src/core/budget/budget';
import { ExtractiveSummarizer } from '../../src/core/budget/summarizer';
import type { ToolFormPlanner } from '../../src/core/engine/toolForms';
import { DEFAULT_TOOL_FORMS, planToolForms } from '../../src/core/planning/toolArtifacts';
import { replayScenario, type ReplayedTurn } from '../../src/core/scenario/replay';
import { DEFAULT_BUDGET_SETTINGS } from '../../src/core/settings/budgetSettings';
import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { FsVault } from '../../src/node/fsVault';
import { notesOf, toolChatScenario } from './toolChat';

/** One way of running the tool chat: its compactions and what the requests carried. */
export interface ToolChatRun {
  readonly compactions: number;
  /** Mean tokens of the request right after a compaction (what the chat carries on from it). */
  readonly meanAfter: number;
  /** Mean tokens of every request. */
  readonly meanRequest: number;
  readonly maxRequest: number;
  readonly overBudget: number;
  /** Tool outputs sent shorter, over all compactions. */
  readonly outputsShortened: number;
}

export interface ToolChatFigures {
  readonly corpus: string;
  readonly notes: number;
  readonly turns: number;
  readonly model: string;
  readonly budget: number;
  readonly verbatim: ToolChatRun;
  readonly artifacts: ToolChatRun;
}

export const TOOL_CHAT_TURNS = 60;
const MODEL = 'gpt-3.5-turbo';

/** The notes the chat reads: the shared tasks documentation when it is there (larger notes), else the project's vault. */
export function toolChatCorpus(root: string): string {
  const shared = path.resolve(root, '..', 'shared', 'corpus', 'tasks-docs');
  return existsSync(shared) ? shared : path.join(root, 'examples', 'vault');
}

/** The offline planner of tool forms (digests and exclusions), as a compaction in Strata runs it with planning "heuristic". */
export function offlineToolForms(model: string): ToolFormPlanner {
  const counter = tokenCounterFor(model);
  return (kept, previous, signal) => planToolForms(kept, previous, counter, DEFAULT_TOOL_FORMS, signal);
}

function runOf(turns: readonly ReplayedTurn[], budget: InputBudget): ToolChatRun {
  const sizes = turns.map((t) => t.assembly.promptTokens);
  const after = turns.filter((t) => (t.compactions ?? []).length > 0).map((t) => t.assembly.promptTokens);
  const events = turns.flatMap((t) => t.compactions ?? []);
  const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : Math.round(xs.reduce((a, b) => a + b, 0) / xs.length));
  return {
    compactions: events.length,
    meanAfter: mean(after),
    meanRequest: mean(sizes),
    maxRequest: Math.max(...sizes),
    overBudget: sizes.filter((s) => s > budget.tokens).length,
    outputsShortened: events.reduce((n, e) => n + (e.outputsShortened ?? 0), 0),
  };
}

/** The tool chat on a 16k model, its earlier tool outputs verbatim (masked) and as artifacts. */
export async function measureToolChat(root: string, turns = TOOL_CHAT_TURNS): Promise<ToolChatFigures> {
  const corpus = toolChatCorpus(root);
  const notes = notesOf(corpus);
  const scenario = toolChatScenario(notes, turns, MODEL);
  const settings = DEFAULT_BUDGET_SETTINGS;
  const budget = inputBudget(MODEL, settings);
  const vault = () => new FsVault(corpus);
  const base = { budget, settings, summarizer: new ExtractiveSummarizer() };
  const verbatim = await replayScenario(scenario, vault(), { budget: base });
  const artifacts = await replayScenario(scenario, vault(), { budget: { ...base, toolForms: offlineToolForms(MODEL) } });
  return {
    corpus: path.relative(root, corpus).split(path.sep).join('/'),
    notes: notes.length,
    turns,
    model: MODEL,
    budget: budget.tokens,
    verbatim: runOf(verbatim, budget),
    artifacts: runOf(artifacts, budget),
  };
}
