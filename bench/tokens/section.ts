import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { Tiktoken } from 'js-tiktoken/lite';
import { ChatController } from '../../src/core/chat/chatController';
import { ChatArchive } from '../../src/core/conversation/archive';
import { MemoryChatStore } from '../../src/core/conversation/store';
import { resetTokenCounterMemos, tokenCounterFor, warmTokenCounts } from '../../src/core/tokens/tokenCounter';
import { FsVault } from '../../src/node/fsVault';
import { int, ms } from '../report/format';
import { benchSettings, InstantProvider } from '../wholeTurn/provider';

/**
 * Token counting (issue 26, finding 1): long runs of every kind counted cold, ordinary text against
 * js-tiktoken's own encode, the longest stretch warmTokenCounts holds the thread on a pasted note of
 * long runs, and that note attached, previewed and sent through the chat controller.
 */

export interface RunRow {
  readonly input: string;
  readonly chars: number;
  readonly tokens: number;
  readonly ms: number;
  /** The figure measured on main before this change (issue 26), when there is one. */
  readonly before: string | null;
}

export interface TokenBench {
  /** First use: js-tiktoken's o200k tables loaded (as before this change). */
  readonly loadMs: number;
  /** First long piece: the linear merge's byte-keyed rank table built (once per tokenizer). */
  readonly tableMs: number;
  readonly runs: readonly RunRow[];
  /** Ordinary text (the examples vault, all notes together): ms per 100k characters. */
  readonly ordinary: { readonly chars: number; readonly ms: number; readonly jsTiktokenMs: number; readonly same: boolean };
  readonly pasted: {
    readonly chars: number;
    readonly tokens: number;
    readonly countMs: number;
    /** warmTokenCounts on the note: its longest stretch between two pauses, and the pauses. */
    readonly longestSliceMs: number;
    readonly pauses: number;
    readonly previewMs: number;
    readonly sendMs: number;
  };
}

const RUNS: ReadonlyArray<[string, string, string | null]> = [
  ['5,000 spaces', ' '.repeat(5_000), '16.2 s'],
  ['10,000 spaces', ' '.repeat(10_000), '> 60 s'],
  ['5,000 tabs', '\t'.repeat(5_000), '11.8 s'],
  ['5,000 NBSP', '\u00a0'.repeat(5_000), '> 40 s'],
  ['漢 ×100k', '漢'.repeat(100_000), '19.8 s'],
  ['😀 ×50k', '😀'.repeat(50_000), '9.0 s'],
  ['é ×100k', 'é'.repeat(100_000), '7.8 s'],
  ['"a" ×200k', 'a'.repeat(200_000), '5.0 s'],
  ['100k spaces', ' '.repeat(100_000), null],
  ['100k tabs', '\t'.repeat(100_000), null],
  ['100k NBSP', '\u00a0'.repeat(100_000), null],
  ['100k line breaks', '\n'.repeat(100_000), null],
  ['👩‍👩‍👧‍👦 ×20k (ZWJ)', '👩\u200d👩\u200d👧\u200d👦'.repeat(20_000), null],
  ['e + U+0301 ×50k', 'e\u0301'.repeat(50_000), null],
  ['"=" ×100k', '='.repeat(100_000), null],
  ['digits ×100k', '7'.repeat(100_000), null],
];

/** The pasted note of issue 26's "done when". */
export function pastedNote(): string {
  return ['# Pasted', '', ' '.repeat(20_000), '\t'.repeat(20_000), '\u00a0'.repeat(20_000), '漢字'.repeat(25_000), '😀👍🏽'.repeat(10_000), 'a'.repeat(100_000), '', 'The end.', ''].join('\n');
}

function time<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const value = fn();
  return [value, performance.now() - t];
}

function vaultText(root: string): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.md')) out.push(readFileSync(full, 'utf8'));
    }
  };
  walk(path.join(root, 'examples', 'vault'));
  return out.join('\n\n');
}

export async function measureTokens(root: string): Promise<TokenBench> {
  // The rank tables load once, on first use (the byte-keyed table of the linear merge on the first long piece).
  const [, loadMs] = time(() => tokenCounterFor('gpt-4o').count('warm up'));
  const [, tableMs] = time(() => tokenCounterFor('gpt-4o').count(`warm up ${' '.repeat(1_000)}`));
  const runs: RunRow[] = RUNS.map(([input, text, before]) => {
    resetTokenCounterMemos();
    const [tokens, t] = time(() => tokenCounterFor('gpt-4o').count(text));
    return { input, chars: text.length, tokens, ms: t, before };
  });

  // Ordinary text, five times over the vault (about 100k+ characters), against js-tiktoken's own encode.
  const ordinaryText = vaultText(root).repeat(5);
  /* eslint-disable @typescript-eslint/no-require-imports -- the reference tokenizer */
  const ranks = require('js-tiktoken/ranks/o200k_base') as TiktokenBPE & { default?: TiktokenBPE };
  /* eslint-enable @typescript-eslint/no-require-imports -- end */
  const reference = new Tiktoken(ranks.default ?? ranks);
  reference.encode('warm up', [], []);
  resetTokenCounterMemos();
  const [ids, ordinaryMs] = time(() => tokenCounterFor('gpt-4o').encode(ordinaryText));
  const [refIds, jsTiktokenMs] = time(() => reference.encode(ordinaryText, [], []));
  const same = ids.length === refIds.length && ids.every((id, i) => id === refIds[i]);

  // The pasted note: counted at once, then counted with pauses (the longest stretch between two).
  const note = pastedNote();
  resetTokenCounterMemos();
  const [tokens, countMs] = time(() => tokenCounterFor('gpt-4o').count(note));
  resetTokenCounterMemos();
  let last = performance.now();
  let longest = 0;
  let pauses = 0;
  await warmTokenCounts('gpt-4o', [note], () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    pauses++;
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        last = performance.now();
        resolve();
      }, 0),
    );
  });
  longest = Math.max(longest, performance.now() - last);

  // Attached, previewed and sent through the controller (cold counters).
  resetTokenCounterMemos();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-tokens-'));
  let previewMs = 0;
  let sendMs = 0;
  try {
    writeFileSync(path.join(dir, 'Pasted.md'), note, 'utf8');
    const settings = benchSettings();
    let clock = Date.UTC(2026, 0, 1, 9);
    const now = () => (clock += 1000);
    const provider = new InstantProvider();
    const archive = new ChatArchive(new MemoryChatStore(), { now }, settings.chatFolder);
    const controller = new ChatController({ vault: new FsVault(dir), archive, providers: () => provider, settings: () => settings, now, newId: () => 'bench-tokens' });
    const chips = [{ kind: 'note' as const, path: 'Pasted.md' }];
    let t = performance.now();
    await controller.previewNext(chips);
    previewMs = performance.now() - t;
    t = performance.now();
    await controller.send('What is in it?', chips);
    await controller.flush();
    sendMs = performance.now() - t;
    if (controller.state.answered.length !== 1) throw new Error('bench tokens: the pasted note was not sent');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    loadMs,
    tableMs,
    runs,
    ordinary: { chars: ordinaryText.length, ms: ordinaryMs, jsTiktokenMs, same },
    pasted: { chars: note.length, tokens, countMs, longestSliceMs: longest, pauses, previewMs, sendMs },
  };
}

export function tokensSection(r: TokenBench): string {
  const per100k = (t: number, chars: number) => ms((t * 100_000) / Math.max(1, chars));
  const p = r.pasted;
  return [
    '## Token counting',
    '',
    'Issue 26, finding 1: js-tiktoken merges a piece its pre-tokenizer keeps whole in quadratic time or worse. The counter merges ' +
      'with a heap in rank order (src/core/tokens/linearBpe.ts), token for token what js-tiktoken gives. Each run counted cold ' +
      '(o200k_base, memos cleared); "on main" is the figure issue 26 measured before the change. ' +
      `First use: js-tiktoken's tables loaded in ${ms(r.loadMs)} (as before), the merge's byte-keyed rank table built in ${ms(r.tableMs)} (on the first long piece, once).`,
    '',
    '| input | characters | tokens | time | per 100k characters | on main |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...r.runs.map((x) => `| ${x.input} | ${int(x.chars)} | ${int(x.tokens)} | ${ms(x.ms)} | ${per100k(x.ms, x.chars)} | ${x.before ?? ''} |`),
    '',
    `Ordinary text (the examples vault ×5, ${int(r.ordinary.chars)} characters): ${per100k(r.ordinary.ms, r.ordinary.chars)} per 100k characters; ` +
      `js-tiktoken's own encode ${per100k(r.ordinary.jsTiktokenMs, r.ordinary.chars)}; same tokens: ${r.ordinary.same ? 'yes' : '**no**'}.`,
    '',
    `The pasted note of the issue (20k spaces, 20k tabs, 20k NBSP, 50k CJK, 20k emoji, 100k letters: ${int(p.chars)} characters, ${int(p.tokens)} tokens): ` +
      `counted at once in ${ms(p.countMs)}; counted ahead by warmTokenCounts with ${p.pauses} pauses, holding the thread at most ${ms(p.longestSliceMs)} at a time; ` +
      `attached and previewed through the chat controller in ${ms(p.previewMs)}, then sent and saved in ${ms(p.sendMs)}.`,
    '',
  ].join('\n');
}
