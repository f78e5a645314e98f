import fc from 'fast-check';
import { inputBudget } from '../../../src/core/budget/budget';
import { fitTurn, type FitDeps } from '../../../src/core/budget/condense';
import { condensedMessage } from '../../../src/core/chat/compactions';
import { ExtractiveSummarizer } from '../../../src/core/budget/summarizer';
import type { CompactionEvent } from '../../../src/core/conversation/records/compaction';
import { reloadThroughNote } from '../../../src/core/conversation/reload';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import type { ChatMessage } from '../../../src/core/engine/messages';
import type { AgentHistory, ToolOutput } from '../../../src/core/engine/types';
import { toInspectRecord } from '../../../src/core/scenario/inspectFormat';
import { replayScenario, type ReplayedTurn } from '../../../src/core/scenario/replay';
import { maskLines } from '../../../src/core/engine/masking';
import { DEFAULT_BUDGET_SETTINGS } from '../../../src/core/settings/budgetSettings';
import { FsVault } from '../../../src/node/fsVault';
import { offlineToolForms } from '../../../bench/budget/toolChatFigures';
import { notesOf, readOutput, searchOutput, toolChatScenario, type VaultNote } from '../../../bench/budget/toolChat';
import { VAULT } from '../../helpers/paths';

/*
 * Historical tool outputs as artifacts (issue 27): at a compaction, the kept turns' earlier tool
 * outputs go as digests or are left out; the newest turn's stay whole; native tool messages keep
 * their call ids and order; the budget counts the shortened outputs; reopening sends the same bytes.
 */

const MODEL = 'gpt-3.5-turbo';
const NOTES: VaultNote[] = notesOf(VAULT, 1_000);
const budget = inputBudget(MODEL, DEFAULT_BUDGET_SETTINGS);
const fragments = [{ id: 'system', lifecycle: 'static' as const, text: 'You are a helpful assistant for an Obsidian vault.' }];

function deps(withForms: boolean): FitDeps {
  return {
    budget,
    settings: DEFAULT_BUDGET_SETTINGS,
    summarizer: new ExtractiveSummarizer(),
    signal: new AbortController().signal,
    ...(withForms ? { toolForms: offlineToolForms(MODEL) } : {}),
  };
}

/** One call of an agent turn: a search around a note, or reading it. */
interface Call {
  readonly kind: 'search' | 'read';
  readonly note: number;
}

function toolOf(call: Call): ToolOutput {
  const note = NOTES[call.note % NOTES.length];
  return call.kind === 'read' ? readOutput(note) : searchOutput(note.path, [note, NOTES[(call.note + 1) % NOTES.length], NOTES[(call.note + 2) % NOTES.length]]);
}

function historyOf(turn: number, calls: readonly Call[], tools: readonly ToolOutput[]): AgentHistory {
  return {
    steps: calls.map((_, i) => ({
      text: '',
      calls: [{ id: `call_${turn}_${i}`, name: tools[i].name, args: JSON.parse(tools[i].input) as Record<string, unknown>, isError: false }],
    })),
  };
}

interface Driven {
  readonly requests: { messages: readonly ChatMessage[]; tokens: number; named: string | null }[];
  readonly compactions: CompactionEvent[];
  readonly engine: PromptContextEngine;
}

/** Drive an agent chat: each turn fits its first request in the budget, then commits with its calls as native steps. */
async function drive(turns: readonly (readonly Call[])[], withForms: boolean): Promise<Driven> {
  const engine = new PromptContextEngine();
  const requests: Driven['requests'] = [];
  const compactions: CompactionEvent[] = [];
  for (let i = 0; i < turns.length; i++) {
    const turn = i + 1;
    const input: TurnInput = { userText: `Turn ${turn}: what should I do next?`, items: [], fragments, model: MODEL };
    const fitted = await fitTurn(engine, input, deps(withForms));
    if (fitted.compaction) compactions.push(fitted.compaction);
    const { assembly } = fitted;
    requests.push({ messages: assembly.messages, tokens: assembly.promptTokens, named: assembly.prefixChange?.reason ?? null });
    const calls = turns[i];
    const tools = calls.map(toolOf);
    const recorded = engine.assemble({ ...input, tools });
    engine.commit(recorded, `Answer ${turn}.`, calls.length > 0 ? { history: historyOf(turn, calls, tools), sent: assembly } : undefined);
  }
  return { requests, compactions, engine };
}

/** Every call id a request carries, in order. */
function callIds(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) => (m.steps ?? []).flatMap((s) => s.calls.map((c) => c.id)));
}

const order = (id: string) => id.split('_').slice(1).map(Number);
const ascending = (ids: readonly string[]) => ids.every((id, k) => k === 0 || order(ids[k - 1])[0] < order(id)[0] || (order(ids[k - 1])[0] === order(id)[0] && order(ids[k - 1])[1] < order(id)[1]));

describe('historical tool outputs as artifacts', () => {
  // Every turn reads a note and searches; every third turn reads again the note of the turn before.
  const fixed: Call[][] = Array.from({ length: 24 }, (_, i) => {
    const n = i + 1;
    const note = n % 3 === 0 ? n - 1 : n;
    return [
      { kind: 'search', note },
      { kind: 'read', note },
    ];
  });

  test('after a compaction, older outputs are digests or left out, the newest turn\'s kept, call ids kept in order; fewer tokens carried', async () => {
    const verbatim = await drive(fixed, false);
    const artifacts = await drive(fixed, true);
    expect(verbatim.compactions.length).toBeGreaterThan(0);
    expect(artifacts.compactions.some((c) => (c.outputsShortened ?? 0) > 0)).toBe(true);
    // The first compaction happens on the same turn either way (forms only shrink what it keeps).
    const at = artifacts.requests.findIndex((r) => r.named === 'condensed');
    expect(verbatim.requests.findIndex((r) => r.named === 'condensed')).toBe(at);
    const request = artifacts.requests[at];
    expect(request.tokens).toBeLessThan(verbatim.requests[at].tokens);
    const results = request.messages.flatMap((m) => (m.steps ?? []).flatMap((s) => s.results.map((r) => r.content)));
    expect(results.some((c) => c.includes('kept as its heading outline') && c.includes('Call readNote with path'))).toBe(true);
    expect(results.some((c) => c.includes('kept as its list of sources'))).toBe(true);
    // The newest turn before the request keeps its outputs (masked to head and tail as before, never shortened further).
    const newest = fixed[at - 1].map(toolOf).map((t) => maskLines(t.output, DEFAULT_BUDGET_SETTINGS.maxOutputLines).text);
    expect(results.slice(-newest.length)).toEqual(newest);
    // Native tool messages: every call keeps its id, in call order, each with its own result.
    const ids = callIds(request.messages);
    expect(ids.length).toBeGreaterThan(0);
    expect(ascending(ids)).toBe(true);
    expect(ids).toEqual(callIds(verbatim.requests[at].messages));
    // Over the chat: fewer tokens carried after a compaction, and no more compactions.
    const after = (d: Driven) => d.requests.filter((r) => r.named === 'condensed').map((r) => r.tokens);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(after(artifacts))).toBeLessThan(mean(after(verbatim)));
    expect(artifacts.compactions.length).toBeLessThanOrEqual(verbatim.compactions.length);
  });

  test('a call made again later leaves the earlier output out, saying where it is; condensing says how many outputs it shortened', async () => {
    const { requests, compactions } = await drive(fixed, true);
    expect(condensedMessage({ ...compactions.find((c) => (c.outputsShortened ?? 0) > 1)!, through: 6, kind: 'summary', tokensBefore: 9_870, tokensAfter: 4_812 })).toMatch(
      /^Condensed: turns 1–6 summarized, \d+ earlier tool outputs shortened; the next request goes from 9,870 to 4,812 tokens\.$/,
    );
    const texts = requests.flatMap((r) => r.messages.flatMap((m) => (m.steps ?? []).flatMap((s) => s.results.map((x) => x.content))));
    expect(texts.some((t) => /^\[readNote output of turn \d+ left out when the conversation was condensed: turn \d+ made the same call/.test(t))).toBe(true);
  });

  test('property: random agent trajectories across compactions never pass the budget and extend the prefix byte for byte between named breaks', async () => {
    const call = fc.record({ kind: fc.constantFrom<'search' | 'read'>('search', 'read'), note: fc.nat({ max: 6 }) });
    let condensed = 0;
    let shortened = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(call, { maxLength: 3 }), { minLength: 4, maxLength: 30 }), async (turns) => {
        const { requests, compactions } = await drive(turns, true);
        condensed += compactions.length;
        shortened += compactions.reduce((n, c) => n + (c.outputsShortened ?? 0), 0);
        for (let i = 0; i < requests.length; i++) {
          expect(requests[i].tokens).toBeLessThanOrEqual(budget.tokens);
          expect(ascending(callIds(requests[i].messages))).toBe(true);
          if (i === 0 || requests[i].named !== null) continue;
          // No named break: the request starts with the previous one, byte for byte (steps included).
          const before = requests[i - 1].messages;
          expect(requests[i].messages.slice(0, before.length)).toEqual(before);
        }
      }),
      { numRuns: 12, seed: 27 },
    );
    // The trajectories do reach compactions that shorten outputs (the property is not vacuous).
    expect(condensed).toBeGreaterThan(10);
    expect(shortened).toBeGreaterThan(10);
  });

  test('reopened through the chat note before every turn, the chat sends the same requests (the forms are in the compaction records)', async () => {
    const scenario = toolChatScenario(NOTES, 26, MODEL);
    const vault = () => new FsVault(VAULT);
    const replayBudget = { budget, settings: DEFAULT_BUDGET_SETTINGS, summarizer: new ExtractiveSummarizer(), toolForms: offlineToolForms(MODEL) };
    const plain = await replayScenario(scenario, vault(), { budget: replayBudget });
    const events = plain.flatMap((t) => t.compactions ?? []);
    expect(events.some((e) => (e.outputsShortened ?? 0) > 0)).toBe(true);
    const before = (turns: readonly ReplayedTurn[], turn: number) => turns.slice(0, turn - 1).flatMap((t) => t.compactions ?? []);
    let sawForms = false;
    const reloaded = await replayScenario(scenario, vault(), {
      budget: replayBudget,
      beforeTurn: async (engine, turn, overlay) => {
        const r = await reloadThroughNote(engine, overlay, { id: 'chat-tools', provider: 'openai', model: MODEL }, { compactions: before(plain, turn) });
        expect(r.warnings).toEqual([]);
        expect(r.issues).toEqual([]);
        if (r.text.includes('toolForms')) sawForms = true;
        expect(r.engine.currentCompaction()?.toolForms).toEqual(engine.currentCompaction()?.toolForms);
        return r.engine;
      },
    });
    expect(sawForms).toBe(true);
    expect(reloaded.map(toInspectRecord)).toEqual(plain.map(toInspectRecord));
    expect(reloaded.map((t) => t.assembly.messages)).toEqual(plain.map((t) => t.assembly.messages));
  });
});
