/**
 * Child process for the whole-turn runs (fresh heap, honest memory figures):
 *   node --expose-gc --import tsx bench/wholeTurn/worker.ts <json options>
 * Plays one chat through the real ChatController, the chat-note archive over FsChatStore (a temp
 * folder) and a generated vault of ~2 KB notes on disk, read through `cached` (Obsidian's cachedRead
 * and TFile.stat: memory after the first read) or `uncached` (FsVault: the disk every time). The
 * provider answers at once: what is timed is Enter → provider call. Prints one JSON object on stdout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatController } from '../../src/core/chat/chatController';
import { ChatHub } from '../../src/core/chat/chatHub';
import type { ContextChip } from '../../src/core/context/items';
import { ChatArchive } from '../../src/core/conversation/archive';
import { forgetDecodedNote } from '../../src/core/conversation/decodedNotes';
import type { Conversation } from '../../src/core/conversation/model';
import type { ChatArchivePort, SaveResult } from '../../src/core/ports/chatArchive';
import { FsChatStore } from '../../src/node/fsChatStore';
import { FsVault } from '../../src/node/fsVault';
import { noteSize } from '../frontmatter/chat';
import { median } from '../lib/stats';
import { benchSettings, InstantProvider } from './provider';
import { CachedVault, CountingVault, writeVault } from './vault';

export type VaultKind = 'cached' | 'uncached';

export interface WholeTurnOptions {
  readonly vault: VaultKind;
  readonly notes: number;
  readonly turns: number;
  readonly checkpoints: readonly number[];
  /** Turns (ending at a checkpoint) whose Enter → provider call times form `nextMs`. */
  readonly window: number;
  /** Retries timed at each checkpoint (`againMs`): the checkpoint turn fails this many times, then goes through. */
  readonly retries: number;
  /**
   * Turns of a warm-up chat played first in the same process (its own folder and vault, its figures
   * dropped; a checkpoint at its end, so retry and reopen run too): the measured chat's early
   * checkpoints then time the turn, not V8 compiling the code on its first uses. 0 or absent: none.
   */
  readonly warmupTurns?: number;
  /**
   * Short chats of 50 turns played after the warm-up (each with its own notes, folder and vault, from a
   * collected heap, without a checkpoint's saves and reopens): the next request at turns 4–10 and 44–50
   * of every one, for issue 30's "turn 10 no slower than turn 50" (one chat's window of 7 turns moved
   * that ratio by ±20 % between runs; three chats pooled gave 0.73–1.61× in wall time and 0.77–1.10× in
   * CPU time in five runs at load 11–15, 24 chats 0.88–1.14× and 0.85–0.95×). 0 or absent: none.
   */
  readonly shortChats?: number;
  /** The generator's first note (the warm-up chat's notes are others than the measured chat's: no content-keyed memo carries over). */
  readonly firstNote?: number;
}

export interface WholeTurnCheckpoint {
  readonly turns: number;
  /** Medians, milliseconds. */
  readonly nextMs: number;
  readonly nextSamples: readonly number[];
  /** The same turns' CPU time (the process, all threads), median: what the turn costs whatever else the machine runs. */
  readonly nextCpuMs: number;
  readonly againMs: number;
  readonly againSamples: readonly number[];
  /** The chat's saves during ordinary turns of the window: median wall time of one, and how many a turn makes. */
  readonly saveMs: number;
  readonly savesPerTurn: number;
  /** The part of those saves that is Strata's: the update process() runs (merge check and encode), without the note's read and write. */
  readonly encodeMs: number;
  /** One save of the settled chat with nothing else running (median of 3). */
  readonly saveQuietMs: number;
  /** previewNext(): the usage line's measure of the next request (median of 3). */
  readonly previewMs: number;
  /** Median of the reopens (`openSamples`). */
  readonly openMs: number;
  readonly openSamples: readonly number[];
  /** CPU time of the reopens (median) and of the first send after the last one. */
  readonly openCpuMs: number;
  /** One reopen of the note as if changed outside Strata (not kept in memory: decoded), wall and CPU. */
  readonly openDecodedMs?: number;
  readonly openDecodedCpuMs?: number;
  readonly firstSendMs: number;
  readonly firstSendCpuMs: number;
  readonly noteBytes: number;
  readonly frontmatterBytes: number;
  readonly chatDataBytes: number;
  /** Vault calls per ordinary turn of the window (reads: note texts; stats: modification time and size). */
  readonly readsPerTurn: number;
  readonly statsPerTurn: number;
  readonly libraryNotes: number;
  /** Peak heap used so far (sampled after every turn). */
  readonly heapMiB: number;
}

/** A short chat's next requests at turns 4–10 (`ten`) and 44–50 (`fifty`), wall and CPU (ms). */
export interface ShortChatTurns {
  readonly tenMs: readonly number[];
  readonly fiftyMs: readonly number[];
  readonly tenCpuMs: readonly number[];
  readonly fiftyCpuMs: readonly number[];
}

export interface WholeTurnRun {
  readonly options: WholeTurnOptions;
  readonly checkpoints: readonly WholeTurnCheckpoint[];
  readonly perTurnNextMs: readonly number[];
  /** The warm-up chat's Enter → provider call per turn (a fresh process's first turns), when one was played. */
  readonly warmupNextMs?: readonly number[];
  /** The same in CPU time, per turn. */
  readonly perTurnNextCpuMs?: readonly number[];
  /** The short chats' next requests at turns 4–10 and 44–50, pooled, and each chat's (wall and CPU, ms). */
  readonly shortChats?: ShortChatTurns & { readonly chats: number; readonly perChat?: readonly ShortChatTurns[] };
  readonly peakHeapMiB: number;
  readonly durationMs: number;
}

const MiB = 1024 * 1024;
/** Reopens timed at each checkpoint. */
const REOPENS = 3;
const gc = (globalThis as { gc?: () => void }).gc;

/** The archive the controller saves through, timing each save as the turn pays it. */
class TimedArchive implements ChatArchivePort {
  readonly saves: number[] = [];
  lastPath = '';

  constructor(readonly inner: ChatArchive) {}

  async save(conversation: Conversation): Promise<SaveResult> {
    const start = performance.now();
    const result = await this.inner.save(conversation);
    this.saves.push(performance.now() - start);
    this.lastPath = result.path;
    return result;
  }
  load(id: string) {
    return this.inner.load(id);
  }
  list() {
    return this.inner.list();
  }
  search(query: string) {
    return this.inner.search(query);
  }
  rename(id: string, title: string) {
    return this.inner.rename(id, title);
  }
  delete(id: string) {
    return this.inner.delete(id);
  }
}

/** The chat-note store the archive writes through, timing the update each save hands to process(): the encode, apart from the file's read and write. */
class TimedStore extends FsChatStore {
  readonly updates: number[] = [];

  override process(rel: string, update: (current: string) => string): Promise<string> {
    return super.process(rel, (current) => {
      const start = performance.now();
      const next = update(current);
      this.updates.push(performance.now() - start);
      return next;
    });
  }
}

/** Lets the controller's background work (the usage line's preview, queued saves) finish, as a user's pause does. */
async function settle(controller: ChatController): Promise<void> {
  await controller.flush();
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  await controller.flush();
}

interface Live {
  controller: ChatController;
  archive: TimedArchive;
  store: TimedStore;
  unsubscribe: () => void;
}

/** Turns 4–10 and 44–50 of a chat's per-turn figures (the first at index 0). */
export function shortChatTurns(run: Pick<WholeTurnRun, 'perTurnNextMs' | 'perTurnNextCpuMs'>): ShortChatTurns {
  const cpu = run.perTurnNextCpuMs ?? [];
  return { tenMs: run.perTurnNextMs.slice(3, 10), fiftyMs: run.perTurnNextMs.slice(43, 50), tenCpuMs: cpu.slice(3, 10), fiftyCpuMs: cpu.slice(43, 50) };
}

/**
 * The short chats of `options.shortChats`, after the warm-up: 50 turns each, with their own notes,
 * each from a collected heap (so no chat pays for the one before's garbage) and with no checkpoint
 * (the saves, previews and reopens there time nothing these chats report, and took most of their run).
 */
async function playShortChats(options: WholeTurnOptions, warmup: number): Promise<NonNullable<WholeTurnRun['shortChats']>> {
  const chats = options.shortChats ?? 0;
  const perChat: ShortChatTurns[] = [];
  for (let k = 0; k < chats; k++) {
    gc?.();
    const short = await runWholeTurn({ ...options, notes: 50, firstNote: options.notes + warmup + 50 * k, turns: 50, checkpoints: [], retries: 0, warmupTurns: 0, shortChats: 0 });
    perChat.push(shortChatTurns(short));
  }
  const pooled = (pick: (c: ShortChatTurns) => readonly number[]) => perChat.flatMap(pick);
  return { chats, tenMs: pooled((c) => c.tenMs), fiftyMs: pooled((c) => c.fiftyMs), tenCpuMs: pooled((c) => c.tenCpuMs), fiftyCpuMs: pooled((c) => c.fiftyCpuMs), perChat };
}

/** Hears each turn's timed window (performance.now() at Enter and at the provider call): bench/wholeTurn/trace.ts profiles those. */
export type TurnObserver = (turn: number, startMs: number, calledMs: number) => void;

export async function runWholeTurn(options: WholeTurnOptions, observe?: TurnObserver): Promise<WholeTurnRun> {
  const warmup = options.warmupTurns ?? 0;
  // The warm-up plays no short chats of its own (it did: three more chats, their figures dropped, before the warm-up chat).
  const warmupNextMs = warmup > 0 ? (await runWholeTurn({ ...options, notes: warmup, firstNote: options.notes, turns: warmup, checkpoints: [warmup], warmupTurns: 0, shortChats: 0 })).perTurnNextMs : undefined;
  const shortChats = (options.shortChats ?? 0) > 0 ? await playShortChats(options, warmup) : undefined;
  gc?.(); // the warm-up chats' objects are not the measured chat's heap
  const started = performance.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-wholeturn-'));
  try {
    const vaultDir = path.join(dir, 'vault');
    const chatsDir = path.join(dir, 'chats');
    const paths = writeVault(vaultDir, options.notes, options.firstNote ?? 0);
    const disk = new FsVault(vaultDir);
    const vault = new CountingVault(options.vault === 'cached' ? new CachedVault(disk) : disk);
    const provider = new InstantProvider();
    const settings = benchSettings();
    let clock = Date.UTC(2026, 0, 1, 9);
    const now = () => (clock += 1000);

    // The plugin's one archive and hub (main.ts): every view's controller shares them.
    const store = new TimedStore(chatsDir);
    const archive = new TimedArchive(new ChatArchive(store, { now }, settings.chatFolder));
    // Each new chat its own id: a view's fresh chat must not be taken for the one reopened.
    let ids = 0;
    const deps = { vault, archive, providers: () => provider, settings: () => settings, now, newId: () => `whole-turn-${++ids}` };
    const hub = new ChatHub(deps);
    // A controller as the view holds one: it reads the state on every change (what render() does).
    const live = (): Live => {
      const controller = new ChatController(deps, hub);
      let seen: unknown = null;
      const unsubscribe = controller.subscribe((change) => {
        if (change === 'state') seen = controller.state;
      });
      void seen;
      return { controller, archive, store, unsubscribe };
    };

    let chat = live();
    const attached: number[] = [];
    let fresh = 0;
    const chipsFor = (t: number): ContextChip[] => {
      // Every third turn re-attaches an earlier note; the others attach a new one.
      const index = t % 3 === 0 && attached.length > 0 ? attached[(t * 7) % attached.length] : fresh++ % paths.length;
      if (!attached.includes(index)) attached.push(index);
      return [{ kind: 'note', path: paths[index] }];
    };
    const textFor = (t: number, chips: readonly ContextChip[]) =>
      `Question ${t}: what does ${chips[0].kind === 'note' ? chips[0].path : 'it'} say about the plan, and what should I do next?`;

    const perTurnNextMs: number[] = [];
    const perTurnSaves: number[][] = [];
    const perTurnEncodes: number[][] = [];
    const perTurnReads: number[] = [];
    const perTurnStats: number[] = [];
    const checkpoints: WholeTurnCheckpoint[] = [];
    let peakHeap = 0;
    let reopened: { openMs: number } | null = null;
    // A chat without checkpoints (a short chat) plays its turns and stops; otherwise one turn more, the first send after the last reopen.
    const last = options.checkpoints.length > 0 ? Math.max(...options.checkpoints) : options.turns;
    const end = options.checkpoints.length > 0 ? last + 1 : last;
    const pending = new Map<number, Omit<WholeTurnCheckpoint, 'firstSendMs' | 'firstSendCpuMs'>>();
    const perTurnNextCpuMs: number[] = [];
    const cpuUs = () => {
      const u = process.cpuUsage();
      return u.user + u.system;
    };

    for (let t = 1; t <= end; t++) {
      const checkpoint = options.checkpoints.includes(t);
      const chips = chipsFor(t);
      const savesBefore = chat.archive.saves.length;
      const encodesBefore = chat.store.updates.length;
      const [reads, stats] = [vault.reads, vault.stats];
      if (checkpoint) provider.failNext = options.retries;
      const calls = provider.calls;
      const cpuStart = cpuUs();
      const start = performance.now();
      await chat.controller.send(textFor(t, chips), chips);
      const nextMs = provider.calledAt - start;
      const nextCpuMs = (provider.calledCpuUs - cpuStart) / 1000;
      // A turn that failed before the provider call would time nothing: the run stops and says why.
      if (provider.calls === calls) throw new Error(`turn ${t} never reached the provider: ${chat.controller.state.pending?.error ?? 'no error shown'}`);
      perTurnNextMs.push(nextMs);
      observe?.(t, start, provider.calledAt);
      perTurnNextCpuMs.push(nextCpuMs);
      perTurnReads.push(vault.reads - reads);
      perTurnStats.push(vault.stats - stats);
      const againSamples: number[] = [];
      for (let r = 0; r < (checkpoint ? options.retries : 0); r++) {
        await settle(chat.controller);
        const retryStart = performance.now();
        const before = provider.calls;
        await chat.controller.retry();
        if (provider.calls === before) throw new Error(`the retry of turn ${t} never reached the provider`);
        againSamples.push(provider.calledAt - retryStart);
      }
      await settle(chat.controller);
      perTurnSaves.push(chat.archive.saves.slice(savesBefore));
      perTurnEncodes.push(chat.store.updates.slice(encodesBefore));
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      if (reopened) {
        // The first send after reopening: this turn's Enter → provider call, on the reopened controller.
        const first = nextMs;
        const at = t - 1;
        const row = pending.get(at);
        if (row) checkpoints.push({ ...row, firstSendMs: first, firstSendCpuMs: nextCpuMs });
        pending.delete(at);
        reopened = null;
      }
      if (t > last) break;
      if (!checkpoint) {
        if (t % 50 === 0 && options.checkpoints.length > 0) process.stderr.write(`wholeTurn ${options.vault}: turn ${t} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
        continue;
      }

      // The checkpoint: sizes, a quiet save, the usage line's preview, then reopen on a fresh controller.
      const window = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i - 1).filter((i) => i >= 0);
      const ordinary = window(t - options.window + 1, t - 1);
      const saves = ordinary.flatMap((i) => perTurnSaves[i]);
      const encodes = ordinary.flatMap((i) => perTurnEncodes[i]);
      const conversation = chat.controller.state.conversation;
      const quiet: number[] = [];
      for (let i = 0; i < 3; i++) {
        const s = performance.now();
        await chat.archive.inner.save(conversation);
        quiet.push(performance.now() - s);
      }
      const preview: number[] = [];
      for (let i = 0; i < 3; i++) {
        const s = performance.now();
        await chat.controller.previewNext();
        preview.push(performance.now() - s);
      }
      const note = (await new FsChatStore(chatsDir).read(chat.archive.lastPath)) ?? '';
      const size = noteSize(t, note);
      const nextSamples = window(t - options.window + 1, t).map((i) => perTurnNextMs[i]);
      const id = chat.controller.chatId;
      const libraryNotes = chat.controller.state.library.filter((e) => e.kind === 'note').length;
      chat.unsubscribe();
      // Reopened `REOPENS` times as the plugin reopens a chat (the view showing it closed, a new view's
      // controller over the plugin's hub and archive; one sample moves too much with the machine's
      // load); the first send is on the last.
      const openSamples: number[] = [];
      const openCpuSamples: number[] = [];
      // First, once, the note as if it changed outside Strata (sync, an edit): decoded, not found kept.
      // One collection before the reopens, not one each: full collections forced back to back leave V8
      // slower for a while after (the first send after four of them took 8–15 ms instead of 4–5).
      chat.controller.detach();
      forgetDecodedNote(chat.archive.lastPath);
      gc?.();
      const decodedChat = live();
      const [decodedCpuStart, decodedStart] = [cpuUs(), performance.now()];
      await decodedChat.controller.open(id);
      const openDecodedMs = performance.now() - decodedStart;
      const openDecodedCpuMs = (cpuUs() - decodedCpuStart) / 1000;
      await settle(decodedChat.controller);
      decodedChat.unsubscribe();
      chat = decodedChat;
      for (let k = 0; k < REOPENS; k++) {
        if (k > 0) chat.unsubscribe();
        // The view showing the chat closes: the chat leaves memory (the hub holds what views show).
        chat.controller.detach();
        const reopenedChat = live();
        const openCpuStart = cpuUs();
        const openStart = performance.now();
        await reopenedChat.controller.open(id);
        openSamples.push(performance.now() - openStart);
        openCpuSamples.push((cpuUs() - openCpuStart) / 1000);
        await settle(reopenedChat.controller);
        chat = reopenedChat;
      }
      const openMs = median(openSamples);
      reopened = { openMs };
      pending.set(t, {
        turns: t,
        nextMs: median(nextSamples),
        nextSamples,
        nextCpuMs: median(window(t - options.window + 1, t).map((i) => perTurnNextCpuMs[i])),
        againMs: againSamples.length > 0 ? median(againSamples) : NaN,
        againSamples,
        saveMs: saves.length > 0 ? median(saves) : NaN,
        savesPerTurn: ordinary.length > 0 ? saves.length / ordinary.length : NaN,
        encodeMs: encodes.length > 0 ? median(encodes) : NaN,
        saveQuietMs: median(quiet),
        previewMs: median(preview),
        openMs,
        openSamples,
        openCpuMs: median(openCpuSamples),
        openDecodedMs,
        openDecodedCpuMs,
        noteBytes: size.noteBytes,
        frontmatterBytes: size.frontmatterBytes,
        chatDataBytes: size.chatDataBytes,
        readsPerTurn: ordinary.length > 0 ? ordinary.reduce((n, i) => n + perTurnReads[i], 0) / ordinary.length : NaN,
        statsPerTurn: ordinary.length > 0 ? ordinary.reduce((n, i) => n + perTurnStats[i], 0) / ordinary.length : NaN,
        libraryNotes,
        heapMiB: peakHeap / MiB,
      });
      process.stderr.write(`wholeTurn ${options.vault}: checkpoint ${t}: next ${median(nextSamples).toFixed(1)} ms, open ${openMs.toFixed(0)} ms (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
    }
    chat.unsubscribe();
    return { options, checkpoints, perTurnNextMs, perTurnNextCpuMs, ...(warmupNextMs ? { warmupNextMs } : {}), ...(shortChats ? { shortChats } : {}), peakHeapMiB: peakHeap / MiB, durationMs: performance.now() - started };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [json] = process.argv.slice(2);
  if (!json) {
    process.stderr.write('usage: worker.ts <options as JSON>\n');
    process.exit(2);
  }
  runWholeTurn(JSON.parse(json) as WholeTurnOptions).then(
    (run) => process.stdout.write(`${JSON.stringify(run)}\n`),
    (error: unknown) => {
      process.stderr.write(`wholeTurn worker: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
