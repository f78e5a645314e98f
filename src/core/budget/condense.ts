import type { CompactionEvent, CompactionTrigger } from '../conversation/records/compaction';
import type { Compaction, CompactionKind } from '../engine/compaction';
import type { PromptContextEngine, TurnInput } from '../engine/engine';
import type { TurnAssembly } from '../engine/turnAssembly';
import type { MaskingLimits } from '../engine/masking';
import type { ToolFormPlanner } from '../engine/toolForms';
import { tokenCounterFor } from '../tokens/tokenCounter';
import { budgetStatus, formatTokens, type InputBudget } from './budget';
import { type BudgetSettings } from '../settings/budgetSettings';
import { MIN_CONDENSE_TOKENS, planCompaction, summaryReserve, type CompactionPlan } from './plan';
import { omissionText, type Summarizer, type SummaryOutput } from './summarizer';
import { carriedTokens, LIBRARY_SHARE, planLibraryCondensing, withSummaries, type LibraryPlan, type LibrarySummaries } from './libraryPlan';

/** The request cannot be made to fit: what to tell the user (their message is kept). */
export class BudgetError extends Error {
  constructor(
    message: string,
    readonly code: 'too-large' | 'auto-off',
  ) {
    super(message);
    this.name = 'BudgetError';
  }
}

export interface FitDeps {
  readonly budget: InputBudget;
  readonly settings: BudgetSettings;
  /** Null when summaries are off: dropped turns are omitted with a marker. */
  readonly summarizer: Summarizer | null;
  /** Aborts everything (the user's stop): nothing is condensed. */
  readonly signal: AbortSignal;
  /** Bounds the summary alone: when it fires, the turns are omitted instead. */
  readonly summaryTimeoutMs?: number;
  /**
   * Decides, at a compaction, the shorter forms of the kept turns' earlier tool outputs (historical
   * tool outputs as artifacts). Absent: they stay verbatim, masked to head and tail.
   */
  readonly toolForms?: ToolFormPlanner;
  /** A compaction is about to start (the view says "Condensing…"). */
  readonly onCondensing?: (plan: CompactionPlan) => void;
  /** Compact forms of condensed library items from the summary cache or model (absent: outlines). */
  readonly librarySummaries?: LibrarySummaries | null;
}

export interface Fitted {
  readonly assembly: TurnAssembly;
  readonly compaction: CompactionEvent | null;
  /** The library was condensed on its own (history already condensed as far as it goes): a named break, no compaction. */
  readonly libraryCondensed?: boolean;
}

function masking(settings: BudgetSettings): MaskingLimits {
  return { maxOutputLines: settings.maxOutputLines, maxCodeLines: settings.maxCodeLines };
}

/**
 * Assemble this turn inside the budget. Under the threshold: as is (the request extends the last
 * one). Over it (auto-condense on) or over the budget: one compaction — older history summarized,
 * the newest turns kept — applied to the engine (a named prefix break, kept even if the request then
 * fails, so a retry does not pay for the summary again), then assembled again. Throws BudgetError
 * when even that cannot fit; an abort leaves the engine untouched.
 */
export async function fitTurn(engine: PromptContextEngine, input: TurnInput, deps: FitDeps): Promise<Fitted> {
  const assembly = engine.assemble(input);
  const status = budgetStatus(assembly.promptTokens, deps.budget);
  if (status === 'fits' || (status === 'over-threshold' && !deps.budget.autoCondense)) return { assembly, compaction: null };
  if (!deps.budget.autoCondense) {
    throw new BudgetError(
      `This request is ${formatTokens(assembly.promptTokens)} tokens, over the ${formatTokens(deps.budget.tokens)}-token budget, and auto-condense is off. ` +
        'Condense the chat (the button in the context panel, or the "Condense chat" command), or remove items from the Context Library. Your message is kept.',
      'auto-off',
    );
  }
  // Over the threshold but inside the budget, a compaction that cannot reach the target (this turn
  // is large, or the library fills most of the budget) is put off while requests still fit: a
  // compaction that leaves the chat near the threshold would be followed by another one at once.
  // Measured on budget-chat.json, putting it off only for large turns costs 8 % more (OpenAI rule).
  const defer = status === 'over-threshold' ? (plan: CompactionPlan) => plan.estimatedAfter > deps.budget.target : undefined;
  const before = engine.currentLibraryCondensing();
  const compaction = await condense(engine, input, deps, 'auto', defer);
  const after = compaction || engine.currentLibraryCondensing() !== before ? engine.assemble(input) : assembly;
  if (!compaction && budgetStatus(after.promptTokens, deps.budget) === 'over-budget') throw tooLarge(engine, input, after.promptTokens, deps.budget);
  const alone = !compaction && engine.currentLibraryCondensing() !== before;
  return { assembly: after, compaction, ...(alone ? { libraryCondensed: true } : {}) };
}

/**
 * Condense now (the button, the command): keep the newest messages, summarize the rest. `input` is
 * the next turn as far as it is known (its context, an empty message). Null when there is nothing to condense.
 */
export function condenseNow(engine: PromptContextEngine, input: TurnInput, deps: FitDeps): Promise<CompactionEvent | null> {
  return condense(engine, input, deps, 'manual');
}

async function condense(
  engine: PromptContextEngine,
  input: TurnInput,
  deps: FitDeps,
  trigger: CompactionTrigger,
  defer?: (plan: CompactionPlan) => boolean,
): Promise<CompactionEvent | null> {
  const limits = masking(deps.settings);
  const reserve = summaryReserve(deps.budget);
  const outcome = planCompaction(engine, input, {
    budget: deps.budget,
    masking: limits,
    keepMessages: deps.settings.keepMessages,
    summaryReserve: reserve,
    trigger,
  });
  const n = engine.turnCount;
  let plan: CompactionPlan;
  if (outcome.ok) plan = outcome.plan;
  else if (outcome.reason === 'too-large') {
    // Even with all history condensed it does not fit: the library condenses with it (below).
    const previous = engine.currentCompaction()?.through ?? 0;
    plan = { through: n, previous, maskedThrough: n, keptTurns: 0, outputsMasked: 0, tokensBefore: outcome.tokensBefore, estimatedAfter: outcome.minimum, replaced: 0 };
  } else {
    // Nothing left to condense in history: the library alone may still be (auto only).
    if (trigger === 'auto') await condenseLibraryOnly(engine, input, deps);
    return null;
  }
  // Put off (over the threshold, inside the budget, the target out of reach): the library waits too.
  if (outcome.ok && defer?.(plan)) return null;
  // The library's own budget: condensed in the same break when it passes its share or keeps the
  // request over the threshold (or from fitting at all).
  let library: LibraryPlan | null = null;
  const candidate: Compaction = { through: plan.through, kind: 'summary', text: '', maskedThrough: plan.maskedThrough, masking: limits };
  const overShare = carriedTokens(engine, plan.through) > deps.budget.tokens * LIBRARY_SHARE;
  if (overShare || plan.estimatedAfter > deps.budget.threshold) {
    library = planLibraryCondensing(engine, input, { budget: deps.budget, compaction: candidate, reserve, toKeepShare: true });
    if (library && library.estimatedAfter >= plan.estimatedAfter) library = null;
    if (library) plan = { ...plan, estimatedAfter: library.estimatedAfter, replaced: plan.tokensBefore - (library.estimatedAfter - reserve) };
  }
  if (!outcome.ok && plan.estimatedAfter > deps.budget.tokens) {
    // Condensing cannot make it fit (the summary's room counted): a request that fits as it is goes as it is.
    if (defer) return null;
    throw tooLarge(engine, input, plan.estimatedAfter, deps.budget);
  }
  if (defer?.(plan)) return null;
  deps.onCondensing?.(plan);
  if (deps.signal.aborted) throw new DOMException('Condensing was stopped.', 'AbortError');
  const previous = engine.currentCompaction();
  const dropped = engine.completedTurns().slice(plan.previous, plan.through);
  const notes = notesOf(engine, plan.previous, plan.through);
  let text = '';
  let kind: CompactionKind = 'summary';
  let summary: CompactionEvent['summary'] = null;
  let fallback: string | undefined;
  if (!deps.summarizer) {
    fallback = 'summaries are off';
  } else {
    let out: SummaryOutput | null = null;
    try {
      out = await summarizeWithin(deps, { previous: previous?.text ?? null, turns: dropped, notes, maxTokens: reserve });
    } catch (error) {
      // The user's stop stops the turn; a failed or slow summary falls back to omitting.
      if (deps.signal.aborted) throw error;
      fallback = `the summary failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (out) {
      // A summary far over its room (a model that ignored the length asked for) would leave the chat
      // near its threshold, condensing again every turn; one longer than what it replaces would make
      // the request grow. It is cut to fit both.
      const counter = tokenCounterFor(input.model);
      const room = Math.min(Math.floor(reserve * SUMMARY_OVERRUN), Math.max(MIN_CONDENSE_TOKENS, plan.replaced));
      text = cutToTokens(out.text, room, (t) => counter.count(t));
      summary = { provider: out.provider, model: out.model, usage: out.usage, calls: out.calls };
    }
  }
  if (fallback !== undefined) {
    kind = 'omitted';
    text = omissionText(previous?.text ?? null, 2 * (plan.through - plan.previous), notes);
  }
  if (library) {
    // The compact forms (the summary cache's or model's, else outlines), applied before the summary is fitted.
    library = await withSummaries(library, engine, deps.librarySummaries ?? null, input.model, deps.signal);
    engine.condenseLibrary(library.next, library.added, library.rewritten);
  }
  // The kept turns' earlier tool outputs, decided here and only here (the prefix breaks anyway).
  const forms = deps.toolForms ? await deps.toolForms(engine.completedTurns().slice(plan.through), previous?.toolForms, deps.signal) : [];
  if (deps.signal.aborted) throw new DOMException('Condensing was stopped.', 'AbortError');
  const compaction: Compaction = {
    through: plan.through,
    kind,
    text,
    maskedThrough: plan.maskedThrough,
    masking: limits,
    ...(forms.length > 0 ? { toolForms: forms } : {}),
  };
  let after = engine.assemble(input, { compaction }).promptTokens;
  if (after > deps.budget.tokens) {
    // The summary outgrew its room: cut it from the end until the request fits.
    const fitted = shortenToFit(engine, input, compaction, deps.budget.tokens);
    engine.condense(fitted.compaction);
    after = fitted.tokens;
  } else {
    engine.condense(compaction);
  }
  return {
    trigger,
    through: plan.through,
    previous: plan.previous,
    kind,
    turnsDropped: plan.through - plan.previous,
    outputsMasked: plan.outputsMasked,
    ...(forms.length > 0 ? { outputsShortened: forms.length } : {}),
    tokensBefore: plan.tokensBefore,
    tokensAfter: after,
    summary,
    ...(fallback !== undefined ? { fallback } : {}),
    ...(library ? { library: libraryFigures(library) } : {}),
  };
}

/** What a library condensing did, for the compaction's record. */
function libraryFigures(plan: LibraryPlan): NonNullable<CompactionEvent['library']> {
  return { condensed: plan.added.length, summaries: plan.added.filter((e) => e.form === 'summary').length, rewritten: plan.rewritten };
}

/**
 * History is condensed as far as it goes and the request is still over the budget: the library
 * condenses alone under the current compaction (a named break), when it carries anything.
 */
async function condenseLibraryOnly(engine: PromptContextEngine, input: TurnInput, deps: FitDeps): Promise<void> {
  const current = engine.currentCompaction();
  if (!current || engine.assemble(input).promptTokens <= deps.budget.tokens) return;
  const plan = planLibraryCondensing(engine, input, { budget: deps.budget, compaction: current, reserve: 0, toKeepShare: true });
  if (!plan) return;
  const done = await withSummaries(plan, engine, deps.librarySummaries ?? null, input.model, deps.signal);
  engine.condenseLibrary(done.next, done.added, done.rewritten);
}

async function summarizeWithin(deps: FitDeps, input: Parameters<Summarizer['summarize']>[0]): Promise<SummaryOutput> {
  const summarizer = deps.summarizer as Summarizer;
  const local = new AbortController();
  const onAbort = () => local.abort();
  // A stop that came before the listener is heard all the same.
  if (deps.signal.aborted) local.abort();
  deps.signal.addEventListener('abort', onAbort);
  // AbortSignal.timeout: a timer without the host's timer functions (the core runs in Obsidian and in Node).
  const timeout = deps.summaryTimeoutMs !== undefined ? AbortSignal.timeout(deps.summaryTimeoutMs) : null;
  timeout?.addEventListener('abort', onAbort);
  try {
    const out = await summarizer.summarize(input, local.signal);
    if (local.signal.aborted) throw new Error('the summary took too long');
    if (!out.text.trim()) throw new Error('the summary was empty');
    return out;
  } catch (error) {
    if (local.signal.aborted && !deps.signal.aborted) throw new Error(`the summary took longer than ${Math.round((deps.summaryTimeoutMs ?? 0) / 1000)} s`);
    throw error;
  } finally {
    timeout?.removeEventListener('abort', onAbort);
    deps.signal.removeEventListener('abort', onAbort);
  }
}

/** Items that entered or were referred to in turns previous+1..through, as ids (paths for notes), in order. */
function notesOf(engine: PromptContextEngine, previous: number, through: number): string[] {
  const ids = new Set<string>();
  for (const item of engine.libraryItems()) if (item.enteredTurn > previous && item.enteredTurn <= through) ids.add(item.source);
  const byId = new Map(engine.libraryItems().map((i) => [i.id, i.source]));
  for (const turn of engine.completedTurns().slice(previous, through)) {
    for (const id of turn.referenced) {
      const source = byId.get(id);
      if (source !== undefined) ids.add(source);
    }
  }
  return [...ids];
}

/** How far over its reserve a summary may run before it is cut. */
const SUMMARY_OVERRUN = 1.25;
const CUT_MARKER = '[... summary cut to fit its room ...]';

/** The text's first lines within `max` tokens, and a marker when any were cut. */
export function cutToTokens(text: string, max: number, count: (text: string) => number): string {
  if (count(text) <= max) return text;
  const lines = text.split('\n');
  let lo = 0;
  let hi = lines.length;
  // The longest run of first lines that fits with the marker.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count([...lines.slice(0, mid), CUT_MARKER].join('\n')) <= max) lo = mid;
    else hi = mid - 1;
  }
  return [...lines.slice(0, lo), CUT_MARKER].join('\n');
}

function shortenToFit(engine: PromptContextEngine, input: TurnInput, c: Compaction, budget: number): { compaction: Compaction; tokens: number } {
  let lines = c.text.split('\n');
  let candidate = c;
  let tokens = engine.assemble(input, { compaction: candidate }).promptTokens;
  while (tokens > budget && lines.length > 1) {
    lines = lines.slice(0, Math.max(1, Math.floor(lines.length * 0.8)));
    candidate = { ...c, text: `${lines.join('\n')}\n[... summary cut to fit the budget ...]` };
    tokens = engine.assemble(input, { compaction: candidate }).promptTokens;
  }
  return { compaction: candidate, tokens };
}

/**
 * The request cannot be made to fit. What a chat has accumulated never stops it (history condenses,
 * the library condenses): this is the user's own message with the instructions, or (planning off)
 * what this turn attaches. The error says which.
 */
function tooLarge(engine: PromptContextEngine, input: TurnInput, minimum: number, budget: InputBudget): BudgetError {
  const { L1, L5 } = engine.assemble(input).envelope.layers;
  const own = L1.tokens + L5.tokens;
  if (own > budget.tokens) {
    return new BudgetError(
      `Your message with the chat's instructions needs ${formatTokens(own)} tokens on its own; the budget is ${formatTokens(budget.tokens)} (${budgetOrigin(budget)}). ` +
        'Shorten the message (or the system prompt and memory), or pick a model with a larger window. Your message is kept.',
      'too-large',
    );
  }
  const counter = tokenCounterFor(input.model);
  const sized = new Map<string, { id: string; title: string; tokens: number }>();
  for (const item of engine.libraryItems()) sized.set(item.id, { id: item.id, title: item.title, tokens: item.tokens });
  for (const item of input.items) sized.set(item.id, { id: item.id, title: item.title, tokens: counter.count(item.content) });
  const largest = [...sized.values()].sort((a, b) => b.tokens - a.tokens || (a.id < b.id ? -1 : 1)).slice(0, 3);
  const names = largest.map((i) => `"${i.title}" (${formatTokens(i.tokens)})`).join(', ');
  return new BudgetError(
    `This request needs ${formatTokens(minimum)} tokens; the budget is ${formatTokens(budget.tokens)} (${budgetOrigin(budget)}). ` +
      (largest.length > 0 ? `The largest items in what this message attaches are ${names}. Attach less, turn context planning on, ` : 'Shorten the message, ') +
      'or pick a model with a larger window. Your message is kept.',
    'too-large',
  );
}

/** Where a budget comes from, in words: the max context tokens setting, or the window less the reply's reserve (the error text and the usage panel). */
export function budgetOrigin(budget: InputBudget): string {
  const window = `${budget.model} has a window of ${formatTokens(budget.window)} tokens, ${formatTokens(budget.reserve)} kept for the reply`;
  const capped = budget.maxContextTokens < budget.window - budget.reserve;
  const margin = budget.estimated ? '; token counts for this model are estimates, so a margin is kept' : '';
  return capped ? `your max context tokens (${formatTokens(budget.maxContextTokens)}); ${window}${margin}` : `${window}${margin}`;
}
