/**
 * Child process for the growth runs (fresh heap, honest memory figures):
 *   node --expose-gc --import tsx bench/growth/worker.ts <corpusDir> <json options>
 * Plays the synthetic conversation through PromptContextEngine and, at each checkpoint turn N,
 * times engine.assemble() for turn N: 'next' (the first assembly of the turn, as in a live chat),
 * 'warm' (repeated: everything memoised) and 'cold' (a restored engine with cloned state and empty
 * token memos: nothing memoised but the loaded tokenizer). Prints one JSON object on stdout.
 */
import type { ContextItem } from '../../src/core/context/items';
import { PromptContextEngine, type EngineState, type TurnInput } from '../../src/core/engine/engine';
import { promptFragments } from '../../src/core/systemPrompt';
import { resetTokenCounterMemos, tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { corpusNotes } from './corpusNotes';
import { growthPlan, growthReply, growthUserText, type GrowthTurn } from './plan';
import { profileSection, type HotFunction } from './profile';

export interface GrowthOptions {
  readonly turns: number;
  readonly notes: number;
  readonly checkpoints: readonly number[];
  readonly warmRuns: number;
  /** Cold repetitions per checkpoint (same order as `checkpoints`): cheap small sizes get more. */
  readonly coldRuns: readonly number[];
  /** Window of turns (ending at N) whose first assembly forms the 'next' sample. */
  readonly nextWindow: number;
  readonly model: string;
  /** When > 0: at the last checkpoint, profile this many warm assemblies and one cold one. */
  readonly profileRuns?: number;
  /** Turns of the plan first played on a throwaway engine (see warmUp); 0 or absent: none. */
  readonly warmupTurns?: number;
}

export interface CheckpointResult {
  readonly turn: number;
  readonly libraryNotes: number;
  readonly libraryChars: number;
  readonly historyChars: number;
  readonly promptTokens: number;
  readonly messages: number;
  /** Characters of all messages of turn N's request. */
  readonly requestChars: number;
  /** Characters handed to the tokenizer by one assembly of turn N (deterministic, unlike times). */
  readonly tokenizedChars: { readonly next: number; readonly warm: number; readonly cold: number };
  /** The same for the first assembly of each turn in the 'next' window (the largest brings a new note). */
  readonly nextWindowTokenizedChars: readonly number[];
  /** New content of each of those turns: new notes' text plus the user's message, in characters. */
  readonly nextWindowNewChars: readonly number[];
  readonly nextMs: readonly number[];
  readonly warmMs: readonly number[];
  readonly coldMs: readonly number[];
  readonly heapUsedMiB: number;
  readonly rssMiB: number;
}

export interface GrowthRun {
  readonly options: GrowthOptions;
  readonly tokenizerLoadMs: number;
  readonly corpusChars: number;
  readonly checkpoints: readonly CheckpointResult[];
  /** First-assembly time of every turn, in order. */
  readonly perTurnMs: readonly number[];
  readonly peakHeapUsedMiB: number;
  readonly peakRssMiB: number;
  readonly gcExposed: boolean;
  readonly profile: { readonly turn: number; readonly warm: HotFunction[]; readonly cold: HotFunction[] } | null;
}

const MiB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Counts characters passed to the tokenizer: wraps encode() on the shared counters' prototype
 * (every memoised counter, old or reset, shares it). Returns a reader of the running total.
 */
function instrumentTokenizer(model: string): () => number {
  let chars = 0;
  const proto = Object.getPrototypeOf(tokenCounterFor(model)) as { encode: (this: unknown, text: string) => number[] };
  const encode = proto.encode;
  proto.encode = function counted(this: unknown, text: string): number[] {
    chars += text.length;
    return encode.call(this, text);
  };
  return () => chars;
}

function timed(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** A deep enough copy that no memo keyed by object identity (rendered items) can hit. */
function cloneState(state: EngineState): EngineState {
  return {
    turns: state.turns.map((t) => ({ ...t })),
    library: state.library.map((item) => ({ ...item })),
    lastRequest: state.lastRequest ? { ...state.lastRequest } : null,
  };
}

/**
 * Plays the plan's first turns on a throwaway engine with copies of the notes (no memo keyed by an
 * item object carries over), then empties the token memos (none keyed by text does): the measured
 * conversation's early checkpoints then time the engine, not V8 compiling it on its first calls.
 */
function warmUp(plan: readonly GrowthTurn[], notes: readonly ContextItem[], fragments: TurnInput['fragments'], model: string, turns: number): void {
  const engine = new PromptContextEngine();
  const copies = notes.map((n) => ({ ...n }));
  const inLibrary = new Map<string, ContextItem>();
  for (const step of plan.slice(0, turns)) {
    const items = step.attach.map((k) => copies[k]);
    const current = new Map<string, ContextItem | null>([...inLibrary].filter(([id]) => !items.some((i) => i.id === id)));
    const assembly = engine.assemble({ userText: growthUserText(step.turn, items[0]?.title ?? 'the conversation'), items, fragments, model, current });
    engine.commit(assembly, growthReply(step.turn, copies[(step.turn * 13) % copies.length].content));
    for (const item of items.slice(0, step.newNotes)) inLibrary.set(item.id, item);
  }
  resetTokenCounterMemos();
}

export async function runGrowth(corpusDir: string, options: GrowthOptions): Promise<GrowthRun> {
  const notes = await corpusNotes(corpusDir, options.notes);
  const fragments = promptFragments();
  const tokenizerLoadMs = timed(() => tokenCounterFor(options.model).count('warm up the tokenizer'));
  const tokenized = instrumentTokenizer(options.model);
  const plan = growthPlan(options.turns, notes.length);
  warmUp(plan, notes, fragments, options.model, options.warmupTurns ?? 0);
  gc?.(); // the throwaway engine is not the measured one's heap
  const engine = new PromptContextEngine();
  const checkpoints: CheckpointResult[] = [];
  const perTurnMs: number[] = [];
  const perTurnChars: number[] = [];
  const perTurnNewChars: number[] = [];
  const inLibrary = new Map<string, ContextItem>();
  let historyChars = 0;
  let peakHeap = 0;
  let profile: GrowthRun['profile'] = null;
  const lastCheckpoint = Math.max(...options.checkpoints);

  for (const step of plan) {
    const items = step.attach.map((k) => notes[k]);
    const current = new Map<string, ContextItem | null>([...inLibrary].filter(([id]) => !items.some((i) => i.id === id)));
    const input: TurnInput = {
      userText: growthUserText(step.turn, items[0]?.title ?? 'the conversation'),
      items,
      fragments,
      model: options.model,
      current,
    };
    // The first assembly of a turn is what a live chat pays: history memoised, this turn's content new.
    const charsBefore = tokenized();
    const start = performance.now();
    const assembly = engine.assemble(input);
    perTurnMs.push(performance.now() - start);
    const nextChars = tokenized() - charsBefore;
    perTurnChars.push(nextChars);
    perTurnNewChars.push(items.slice(0, step.newNotes).reduce((n, i) => n + i.content.length, input.userText.length));
    if (options.checkpoints.includes(step.turn)) {
      const nextMs = perTurnMs.slice(-options.nextWindow);
      const warmMs: number[] = [];
      // No forced gc() before timed samples: a forced full collection makes the next call several
      // times slower (measured), which would time the collector, not the engine.
      for (let i = 0; i < options.warmRuns; i++) {
        warmMs.push(timed(() => engine.assemble(input)));
      }
      let mark = tokenized();
      engine.assemble(input);
      const warmChars = tokenized() - mark;
      const coldMs: number[] = [];
      const state = engine.snapshot();
      const coldRuns = options.coldRuns[options.checkpoints.indexOf(step.turn)] ?? 1;
      // Every cold assembly tokenizes the same characters: the first one's count is the figure (no
      // extra assembly for it: at 1,000 turns one takes over a second).
      let coldChars = 0;
      for (let i = 0; i < coldRuns; i++) {
        const fresh = PromptContextEngine.restore(cloneState(state));
        resetTokenCounterMemos();
        mark = tokenized();
        coldMs.push(timed(() => fresh.assemble(input)));
        if (i === 0) coldChars = tokenized() - mark;
      }
      resetTokenCounterMemos();
      engine.assemble(input); // re-warm the shared memo before the conversation goes on
      if ((options.profileRuns ?? 0) > 0 && step.turn === lastCheckpoint) {
        const warm = await profileSection(() => {
          for (let i = 0; i < (options.profileRuns ?? 0); i++) engine.assemble(input);
        });
        const fresh = PromptContextEngine.restore(cloneState(state));
        resetTokenCounterMemos();
        const cold = await profileSection(() => fresh.assemble(input));
        resetTokenCounterMemos();
        engine.assemble(input);
        profile = { turn: step.turn, warm, cold };
      }
      gc?.();
      const mem = process.memoryUsage();
      checkpoints.push({
        turn: step.turn,
        libraryNotes: inLibrary.size + step.newNotes,
        libraryChars: [...inLibrary.values(), ...items.slice(0, step.newNotes)].reduce((n, i) => n + i.content.length, 0),
        historyChars,
        promptTokens: assembly.promptTokens,
        messages: assembly.messages.length,
        requestChars: assembly.messages.reduce((n, m) => n + m.content.length, 0),
        tokenizedChars: { next: nextChars, warm: warmChars, cold: coldChars },
        nextWindowTokenizedChars: perTurnChars.slice(-options.nextWindow),
        nextWindowNewChars: perTurnNewChars.slice(-options.nextWindow),
        nextMs,
        warmMs,
        coldMs,
        heapUsedMiB: mem.heapUsed / MiB,
        rssMiB: mem.rss / MiB,
      });
    }
    const reply = growthReply(step.turn, notes[(step.turn * 13) % notes.length].content);
    engine.commit(assembly, reply);
    for (const item of items.slice(0, step.newNotes)) inLibrary.set(item.id, item);
    historyChars += input.userText.length + reply.length;
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }
  return {
    options,
    tokenizerLoadMs,
    corpusChars: notes.reduce((n, i) => n + i.content.length, 0),
    checkpoints,
    perTurnMs,
    peakHeapUsedMiB: peakHeap / MiB,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    gcExposed: gc !== undefined,
    profile,
  };
}

if (require.main === module) {
  const [corpusDir, json] = process.argv.slice(2);
  if (!corpusDir || !json) {
    process.stderr.write('usage: worker.ts <corpusDir> <options as JSON>\n');
    process.exit(2);
  }
  runGrowth(corpusDir, JSON.parse(json) as GrowthOptions).then(
    (run) => process.stdout.write(`${JSON.stringify(run)}\n`),
    (error: unknown) => {
      process.stderr.write(`growth worker: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
