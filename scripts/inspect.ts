/**
 * The prompt inspector: replays a scenario through the engine, offline, and prints what each turn
 * would send. Usage: npm run --silent inspect -- <scenario.json> [--vault DIR] [--format jsonl|table]
 *   [--rendering transcript|seed] [--freshness fresh|fresh-attached|stable] [--reload-every-turn]
 * --reload-every-turn saves the chat as a chat note and opens it again (codec + rehydration) before
 * each turn; its output should equal the normal run's, except where a note changed (note-edited).
 * --save-note FILE writes the replayed chat as a chat note (read it back with `npm run chat-note`).
 * Budget: every request is kept inside min(max context, window − reserve) as the chat would keep it,
 * condensing with the offline extractive summarizer (deterministic, no network). The window is the
 * scenario model's (--window N overrides it), the reserve and max context the settings' defaults
 * (--reserve N, --max-context N); --no-summary omits condensed turns with a marker instead;
 * --no-budget replays unbounded, as before budgets existed.
 * --agent openai|openai-responses|anthropic|gemini replays the scenario's messages (with their context) as
 * Agent-mode turns through the real controller, LangChain clients and an in-process local provider
 * server (tool calls scripted by `[[tool NAME {...}]]` lines in the messages, run by the real tools
 * over the scenario's vault), and prints each turn's loop steps: tools called, tokens Strata counted,
 * prompt tokens the provider read and how many came from its cache (the cached share per step).
 * With --edits accept|reject the agent's write tools run too (on a copy of the vault: the scenario's
 * notes never change): every proposal is accepted or rejected whole, and its diff is printed.
 * --planner heuristic|llm|off plans large attachments inside the budget (issue 15): `heuristic`
 * (the default) is the deterministic planner, no model call; `llm` asks the planner and summary
 * models through LangChain clients over an in-process local provider server (its default plan,
 * its replies as summaries), so the jsonl's `plan` field carries real call usage and cost; `off`
 * sends attachments as they are. --no-sticky decides every artifact again each turn. Each planned
 * turn's jsonl line gets a `plan` field; a turn with `"expect"` sections gets `expected` (reached or not).
 * --dataview answers the Dataview blocks of attached notes with the stand-in Dataview over the
 * scenario's vault (testing/dataview/standIn.ts); without it, their query text is sent.
 */
import { writeFileSync } from 'node:fs';
import { inputBudget } from '../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS, type BudgetSettings } from '../src/core/settings/budgetSettings';
import { ExtractiveSummarizer } from '../src/core/budget/summarizer';
import { RENDERINGS, type Rendering } from '../src/core/settings/engineChoices';
import { FRESHNESS_POLICIES, type FreshnessPolicy } from '../src/core/settings/engineChoices';
import { formatJsonl, formatTable } from '../src/core/scenario/inspectFormat';
import { encodeChatNote } from '../src/core/conversation/codec';
import type { CompactionEvent } from '../src/core/conversation/records/compaction';
import { conversationFromEngine, reloadThroughNote } from '../src/core/conversation/reload';
import { replayWithEngine, type ReplayBudget, type ReplayPlanning } from '../src/core/scenario/replay';
import type { Scenario } from '../src/core/scenario/scenario';
import { SummaryCache } from '../src/core/planning/summaryCache';
import { llmPlanner } from '../src/core/planning/llmPlanner';
import { modelSummarizer } from '../src/core/planning/summarize';
import { startLocalModels, type LocalModels } from '../src/node/localModels';
import { FsVault } from '../src/node/fsVault';
import { VaultIndex } from '../src/core/search/vaultIndex';
import { loadScenarioFile } from '../src/node/scenarioFiles';
import { parseArgs } from './args';
import { withDataview } from '../testing/dataview/standInVault';
import { AGENT_APIS, runAgentTurns, type AgentApi, type AgentRun } from '../src/node/agentRun';

const USAGE =
  'usage: inspect <scenario.json> [--vault DIR] [--format jsonl|table] [--rendering transcript|seed] [--freshness fresh|fresh-attached|stable] [--reload-every-turn] [--save-note FILE]\n' +
  '               [--window N] [--reserve N] [--max-context N] [--no-summary] [--no-budget] [--agent openai|openai-responses|anthropic|gemini [--edits accept|reject]]\n' +
  '               [--planner heuristic|llm|off] [--no-sticky] [--dataview]';

const BUDGET_OPTIONS = ['window', 'reserve', 'max-context'] as const;

function tokensOption(args: { options: Record<string, string> }, name: string): number | undefined {
  const text = args.options[name];
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) <= 0) throw new UsageError(`--${name} takes a positive whole number of tokens, not "${text}"\n${USAGE}`);
  return Number(text);
}

/** The replay's budget from the options: the settings' defaults, the scenario model's window. */
function budgetFrom(args: { options: Record<string, string>; flags: Set<string> }, model: string): ReplayBudget | null {
  if (args.flags.has('no-budget')) {
    const clash = [...BUDGET_OPTIONS.filter((o) => args.options[o] !== undefined), ...(args.flags.has('no-summary') ? ['no-summary'] : [])];
    if (clash.length > 0) throw new UsageError(`--no-budget replays without a budget: drop ${clash.map((o) => `--${o}`).join(', ')}\n${USAGE}`);
    return null;
  }
  const window = tokensOption(args, 'window');
  const reserve = tokensOption(args, 'reserve');
  const maxContext = tokensOption(args, 'max-context');
  const summarize = !args.flags.has('no-summary');
  const settings: BudgetSettings = {
    ...DEFAULT_BUDGET_SETTINGS,
    ...(reserve !== undefined ? { reservedOutputTokens: reserve } : {}),
    ...(maxContext !== undefined ? { maxContextTokens: maxContext } : {}),
    summarize,
  };
  const budget = inputBudget(model, settings, window !== undefined ? { [model]: window } : {});
  return { budget, settings, summarizer: summarize ? new ExtractiveSummarizer(model) : null };
}

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv, ['vault', 'format', 'rendering', 'freshness', 'save-note', 'agent', 'edits', 'planner', ...BUDGET_OPTIONS], ['reload-every-turn', 'no-budget', 'no-summary', 'no-sticky', 'dataview']);
  const file = args.positional[0];
  if (!file || args.positional.length > 1) throw new UsageError(USAGE);
  const format = args.options.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'table') throw new UsageError(`--format must be jsonl or table\n${USAGE}`);
  const rendering = (args.options.rendering ?? 'transcript') as Rendering;
  if (!RENDERINGS.includes(rendering)) throw new UsageError(`--rendering must be one of ${RENDERINGS.join(', ')}`);
  const freshness = (args.options.freshness ?? 'fresh') as FreshnessPolicy;
  if (!FRESHNESS_POLICIES.includes(freshness)) throw new UsageError(`--freshness must be one of ${FRESHNESS_POLICIES.join(', ')}`);

  const { scenario, vaultDir } = loadScenarioFile(file, args.options.vault);
  const agentApi = args.options.agent;
  if (agentApi !== undefined) {
    if (!(AGENT_APIS as readonly string[]).includes(agentApi)) throw new UsageError(`--agent must be one of ${AGENT_APIS.join(', ')}\n${USAGE}`);
    const edits = args.options.edits;
    if (edits !== undefined && edits !== 'accept' && edits !== 'reject') throw new UsageError(`--edits must be accept or reject\n${USAGE}`);
    const run = await runAgentTurns(agentApi as AgentApi, vaultDir, scenario.turns.map((t) => ({ text: t.user, chips: t.context })), edits ? { edits } : {});
    process.stdout.write(format === 'jsonl' ? agentJsonl(run) : agentTable(scenario.name, run));
    if (run.edits) process.stdout.write(editsText(run.edits, format));
    return;
  }
  const budget = budgetFrom(args, scenario.model);
  const plannerName = args.options.planner ?? 'heuristic';
  if (!(PLANNERS as readonly string[]).includes(plannerName)) throw new UsageError(`--planner must be one of ${PLANNERS.join(', ')}\n${USAGE}`);
  const local = plannerName === 'llm' ? await startLocalModels(scenario.model) : null;
  try {
    await inspectScenario(args, file, format, rendering, freshness, scenario, vaultDir, budget, plannerName as PlannerName, local);
  } finally {
    await local?.close();
  }
}

const PLANNERS = ['heuristic', 'llm', 'off'] as const;
type PlannerName = (typeof PLANNERS)[number];

/** The replay's planning: the deterministic planner, or the planner and summary models on the local server. */
function planningFor(name: PlannerName, model: string, sticky: boolean, local: LocalModels | null): ReplayPlanning {
  const chat = { provider: 'local', model };
  if (name === 'llm' && local) {
    const deps = { providers: local.providers, costOf: local.costOf };
    return { mode: 'auto', planner: llmPlanner(local.settings, chat, deps), summarizer: modelSummarizer(local.settings, chat, deps), cache: new SummaryCache(), sticky };
  }
  return { mode: name === 'off' ? 'off' : 'heuristic', planner: null, summarizer: null, cache: new SummaryCache(), sticky };
}

async function inspectScenario(
  args: ReturnType<typeof parseArgs>,
  file: string,
  format: string,
  rendering: Rendering,
  freshness: FreshnessPolicy,
  scenario: Scenario,
  vaultDir: string,
  budget: ReplayBudget | null,
  plannerName: PlannerName,
  local: LocalModels | null,
): Promise<void> {
  const planning = budget ? planningFor(plannerName, scenario.model, !args.flags.has('no-sticky'), local) : null;
  const reload = args.flags.has('reload-every-turn');
  const fields = { id: `inspect-${scenario.name}`, provider: 'inspect', model: scenario.model };
  // Every compaction so far, so the chat note written keeps each summary's record (the engine keeps the latest only).
  const compactions: CompactionEvent[] = [];
  // A turn's "search" runs the real vault index over the scenario's vault (built only when a turn needs it).
  const usesSearch = scenario.turns.some((t) => t.search !== undefined);
  const search = usesSearch ? await VaultIndex.create(new FsVault(vaultDir)) : undefined;
  // --dataview: Dataview blocks answered by the stand-in Dataview (testing/dataview) over the vault; without it their query text is sent.
  const vault = args.flags.has('dataview') ? withDataview(new FsVault(vaultDir)) : new FsVault(vaultDir);
  const { turns, engine } = await replayWithEngine(scenario, vault, {
    ...(search ? { search } : {}),
    ...(planning ? { planning } : {}),
    rendering,
    freshness,
    ...(budget ? { budget } : {}),
    afterTurn: (t) => compactions.push(...(t.compactions ?? [])),
    ...(reload
      ? {
          beforeTurn: async (engine, turn, vault) => {
            const reloaded = await reloadThroughNote(engine, vault, fields, { rendering, freshness, compactions: [...compactions] });
            for (const issue of reloaded.issues) process.stderr.write(`inspect: turn ${turn}: reload: ${issue.message}\n`);
            return reloaded.engine;
          },
        }
      : {}),
  });
  const saveNote = args.options['save-note'];
  if (saveNote) {
    let tick = 0;
    const clock = { now: () => Date.UTC(2026, 0, 1) + 1000 * tick++ };
    writeFileSync(saveNote, encodeChatNote(conversationFromEngine(engine.snapshot(), fields, clock, turns.map((t) => t.assembly), compactions)));
  }
  const options = { budget: budget?.budget ?? null };
  process.stdout.write(format === 'jsonl' ? formatJsonl(turns, options) : formatTable(`${scenario.name} (${rendering} rendering, ${freshness} freshness)`, turns, options));
}

/** One line per turn: its loop steps with the cached share of each. */
function agentJsonl(run: AgentRun): string {
  return run.turns.map((t) => JSON.stringify({ turn: t.turn, mode: 'agent', api: run.api, model: run.model, steps: t.steps, reply: t.reply })).join('\n') + '\n';
}

/** The agent's proposals (--edits): each diff and whether it was applied; the vault written is a copy. */
function editsText(edits: NonNullable<AgentRun['edits']>, format: string): string {
  if (format === 'jsonl') return edits.map((e) => JSON.stringify({ edit: e.summary, status: e.status, diff: e.diff })).join('\n') + (edits.length > 0 ? '\n' : '');
  if (edits.length === 0) return 'No edits were proposed.\n';
  return edits.map((e) => `\n${e.summary} (${e.status})\n${e.diff}\n`).join('');
}

function agentTable(name: string, run: AgentRun): string {
  const rows = run.turns.flatMap((t) =>
    t.steps.map((s) =>
      [t.turn, s.step, s.calls.join(', ') || '(answer)', s.promptTokens, s.inputTokens, s.cachedTokens, `${(s.cachedShare * 100).toFixed(1)} %`].map(String),
    ),
  );
  const header = ['turn', 'step', 'tools', 'counted', 'prompt', 'cached', 'share'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [`${name}: agent turns on ${run.api} (${run.model})`, line(header), ...rows.map(line)].join('\n') + '\n';
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`inspect: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
