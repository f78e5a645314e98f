import path from 'node:path';
import { LAYOUT_LABELS, LAYOUTS, RULES, uncached, type Rule, type ScenarioEfficiency } from '../cache/efficiency';
import type { ChatListFigures } from '../chats/section';
import type { NoteSize } from '../frontmatter/chat';
import { frontmatterSection } from '../frontmatter/section';
import { tokensSection, type TokenBench } from '../tokens/section';
import { editsSection, type EditsBench } from '../edits/section';
import type { GrowthSummary } from '../growth/section';
import type { MachineInfo } from '../lib/machine';
import type { PluginCost } from '../plugin/section';
import type { SearchBench } from '../search/section';
import type { BundlePart } from '../plugin/bundleBreakdown';
import type { FirstCount } from '../plugin/firstCount';
import { budgetSection, type BudgetFigures } from './budget';
import { searchSection } from './search';
import { agentSection } from './agent';
import { wholeTurnSection } from './wholeTurn';
import { planningSection } from './planning';
import type { PlanningBench } from '../planning/section';
import type { WholeTurnFigures, WholeTurnRow } from '../wholeTurn/section';
import type { AgentRun } from '../../src/node/agentRun';
import { exponent, int, kchars, kib, mib, ms, pct, ratio, table } from './format';

export interface BenchResults {
  readonly machine: MachineInfo & { readonly loadAverageAtEnd: number };
  readonly startedAt: string;
  readonly durationMs: number;
  /** Run with --long (the 10,000-note search vault, uncached whole turns). */
  readonly long?: boolean;
  /** CPU time of the run: this process and every process it started, ms. */
  readonly cpuMs?: number;
  /** How long each section took, ms. */
  readonly sectionMs?: Readonly<Record<string, number>>;
  /** Each section's CPU time (this process and its children), ms. */
  readonly sectionCpuMs?: Readonly<Record<string, number>>;
  readonly cache: readonly ScenarioEfficiency[] | null;
  readonly budget: BudgetFigures | null;
  readonly growth: GrowthSummary | null;
  readonly chats: readonly ChatListFigures[] | null;
  /** Chat-note frontmatter and chat data sizes by chat length. */
  readonly frontmatter: readonly NoteSize[] | null;
  readonly plugin: PluginFigures | null;
  /** Vault search: quality on the evaluation set, and a generated vault's index build. */
  readonly search: SearchBench | null;
  /** The agent loop: cached share per step on each API. */
  readonly agent: readonly AgentRun[] | null;
  /** Artifact planning: the planning scenario per planner, sticky or not (null: not run, or no corpus). */
  readonly planning: PlanningBench | null;
  /** Whole turns through the chat controller (Enter → provider call, saving, reopening), per vault kind and chat length. */
  readonly wholeTurn: readonly WholeTurnRow[] | null;
  /** The whole-turn runs' options, durations and peak heaps. */
  readonly wholeTurnRuns: WholeTurnFigures['runs'] | null;
  /** The whole-turn rows from before issue 16's changes (bench/wholeTurn/before.json: the same worker on commit 863d8c4). */
  readonly wholeTurnBefore?: readonly WholeTurnRow[] | null;
  /** Token counting: long runs, ordinary text, the pasted note of issue 26. */
  readonly tokens?: TokenBench | null;
  readonly edits?: EditsBench | null;
  /** Sections not run this time, kept from an earlier latest.json (`npm run bench -- --only …`). */
  readonly carriedOver?: { readonly sections: readonly string[]; readonly from: string };
}

/** The plugin section: load cost, the bundle's breakdown, the first token count after loading. */
export type PluginFigures = PluginCost & { readonly breakdown: readonly BundlePart[]; readonly firstCount?: FirstCount };

/** Obsidian Sync's Standard plan skips plugin files over 5 MB; Copilot 4.0.1's main.js, for comparison. */
const SYNC_LIMIT_BYTES = 5_000_000;
const COPILOT_BYTES = 5_080_000;
const BUNDLE_TARGET_BYTES = 2_500_000;

const RULE_NAMES: Record<Rule, string> = {
  openai: 'OpenAI rule (longest shared prefix ≥ 1024 tokens, 128-token steps)',
  anthropic: 'Anthropic rule (prefixes at the compiler\'s cache_control breakpoints, ≥ 1024 tokens, 5-minute lifetime)',
  gemini: 'Gemini rule (explicit entry of the system message once made, else the implicit shared prefix ≥ 1024 tokens; the entry\'s creation turn counts it uncached)',
};

function cacheSection(results: readonly ScenarioEfficiency[]): string {
  const out: string[] = ['## 1. Cache efficiency', ''];
  out.push(
    'Each scenario is replayed through the engine; every request is serialised into one token sequence ' +
      '(per message: role marker + content, the scenario model\'s tokenizer) and fed, in order, to the same pure cache rules ' +
      'the local provider server uses (`testing/providerServer/*CacheRule.ts`); turns are one minute apart. ' +
      'Figures are **uncached prompt tokens summed over the conversation** (lower is better). ' +
      'Lower bound: every distinct system prompt, item version, user message, tool output and carried reply counted once.',
    '',
  );
  for (const rule of RULES) {
    out.push(`### ${RULE_NAMES[rule]}`, '');
    out.push(
      table(
        ['scenario', 'turns', 'lower bound', ...LAYOUTS.map((l) => LAYOUT_LABELS[l]), 'Strata ÷ bound', 'naive ÷ Strata', 'Strata ÷ append-only'],
        results.map((r) => [
          r.name,
          String(r.turns),
          int(r.lowerBound.tokens),
          ...LAYOUTS.map((l) => int(uncached(r.layouts[l].totals, rule))),
          ratio(r.rules[rule].strataOverLowerBound),
          ratio(r.rules[rule].naiveOverStrata),
          ratio(r.rules[rule].strataOverAppendOnly, 3),
        ]),
        ['l'],
      ),
      '',
    );
    out.push(
      table(
        ['scenario', ...LAYOUTS.map((l) => `${LAYOUT_LABELS[l]} ÷ bound`)],
        results.map((r) => [
          r.name,
          ratio(r.rules[rule].strataOverLowerBound),
          ratio(r.rules[rule].seedOverLowerBound),
          ratio(r.rules[rule].naiveOverLowerBound),
          ratio(r.rules[rule].appendOnlyOverLowerBound),
        ]),
        ['l'],
      ),
      '',
    );
  }

  out.push('### Strata default vs the append-only transcript', '');
  const lines: string[] = [];
  for (const r of results) {
    for (const rule of RULES) {
      const c = r.rules[rule];
      if (c.strataMinusAppendOnly <= 0) continue;
      const named = c.worseTurns.filter((t) => t.prefixChange !== null);
      const excess = (ts: typeof c.worseTurns) => ts.reduce((n, t) => n + t.strata - t.appendOnly, 0);
      const namedText = named.length > 0 ? `; ${int(excess(named))} of it on turns with a named prefix break (${named.map((t) => `turn ${t.turn}: ${t.prefixChange}`).join(', ')})` : '';
      lines.push(
        `- **${r.name}**, ${rule}: Strata leaves ${int(c.strataMinusAppendOnly)} more tokens uncached (${ratio(c.strataOverAppendOnly, 3)})${namedText}. ` +
          `Turns where Strata is worse: ${c.worseTurns.map((t) => `${t.turn} (+${int(t.strata - t.appendOnly)})`).join(', ')}.`,
      );
    }
  }
  out.push(lines.length > 0 ? lines.join('\n') : '- Strata\'s default is never worse than the append-only transcript.', '');

  const fresh = results.filter((r) => r.freshness !== null);
  if (fresh.length > 0) {
    out.push('### Freshness cost (transcript rendering, edited notes)', '');
    out.push(
      table(
        ['scenario', 'policy', 'prompt tokens', 'uncached (OpenAI)', 'uncached (Anthropic)'],
        fresh.flatMap((r) => {
          const f = r.freshness;
          if (!f) return [];
          const row = (policy: string, t: typeof f.fresh) => [r.name, policy, int(t.promptTokens), int(t.openaiUncached), int(t.anthropicUncached)];
          return [
            row('fresh (default)', f.fresh),
            row('stable', f.stable),
            [r.name, 'fresh − stable', int(f.fresh.promptTokens - f.stable.promptTokens), int(f.fresh.openaiUncached - f.stable.openaiUncached), int(f.fresh.anthropicUncached - f.stable.anthropicUncached)],
          ];
        }),
        ['l', 'l'],
      ),
      '',
    );
  }

  out.push('### Per turn', '');
  for (const r of results) {
    const s = r.layouts.strata.perTurn;
    out.push(`<details><summary>${r.name} (${path.basename(r.file)}, ${r.turns} turns, ${r.model})</summary>`, '');
    out.push(
      table(
        ['turn', 'prompt', 'OpenAI cached', 'OpenAI uncached', 'Anthropic read', 'Anthropic uncached', 'seed uncached (OAI / Anth)', 'naive uncached (OAI)', 'append-only uncached (OAI / Anth)'],
        s.map((t, i) => {
          const seed = r.layouts['strata-seed'].perTurn[i];
          const naive = r.layouts.naive.perTurn[i];
          const append = r.layouts['append-only'].perTurn[i];
          return [
            String(t.turn),
            int(t.promptTokens),
            int(t.openaiCached),
            int(uncached(t, 'openai')),
            int(t.anthropicRead),
            int(uncached(t, 'anthropic')),
            `${int(uncached(seed, 'openai'))} / ${int(uncached(seed, 'anthropic'))}`,
            int(uncached(naive, 'openai')),
            `${int(uncached(append, 'openai'))} / ${int(uncached(append, 'anthropic'))}`,
          ];
        }),
      ),
      '',
      '</details>',
      '',
    );
  }
  return out.join('\n');
}

function growthSection(g: GrowthSummary): string {
  const o = g.run.options;
  const out: string[] = ['## 2. Assembly speed and growth', ''];
  out.push(
    `One synthetic chat of ${o.turns} turns over the ${o.notes} largest notes of ../shared/corpus (${kchars(g.run.corpusChars)} characters of text), ` +
      `a new note every ${o.turns / o.notes} turns plus two earlier notes re-attached each turn, ~600-character replies; run in a child process. ` +
      `Timed: \`engine.assemble()\` for turn N (envelope, messages, token counts). ` +
      `**next**: the first assembly of each of turns N−${o.nextWindow - 1}…N, as a live chat pays it (history memoised, the turn's new note not); ` +
      `**warm**: turn N assembled again, ${o.warmRuns} times (everything memoised); ` +
      `**cold**: ${o.coldRuns.join(' / ')} times (per N) on an engine restored from a cloned snapshot with the token-count memos cleared (the tokenizer stays loaded; loading it took ${ms(g.run.tokenizerLoadMs)}).`,
    '',
  );
  out.push(
    table(
      ['N', 'library notes', 'library chars', 'history chars', 'prompt tokens', 'next median / p95', 'warm median / p95', 'cold median / p95', 'heap used', 'RSS'],
      g.points.map((p) => [
        String(p.turn),
        String(p.libraryNotes),
        kchars(p.libraryChars),
        kchars(p.historyChars),
        int(p.promptTokens),
        `${ms(p.modes.next.median)} / ${ms(p.modes.next.p95)}`,
        `${ms(p.modes.warm.median)} / ${ms(p.modes.warm.p95)}`,
        `${ms(p.modes.cold.median)} / ${ms(p.modes.cold.p95)}`,
        mib(p.heapUsedMiB),
        mib(p.rssMiB),
      ]),
    ),
    '',
  );
  out.push(
    'Tokenizer work per assembly (characters handed to the tokenizer; deterministic, unlike times):',
    '',
    table(
      ['N', 'request chars', 'next: turn N', `next: largest of turns N−${o.nextWindow - 1}…N (its new content)`, 'warm', 'cold', 'cold ÷ request'],
      g.points.map((p) => [
        String(p.turn),
        int(p.requestChars),
        int(p.tokenizedChars.next),
        `${int(p.tokenizedChars.nextMax)} (${int(p.nextMaxNewChars)})`,
        int(p.tokenizedChars.warm),
        int(p.tokenizedChars.cold),
        ratio(p.tokenizedChars.cold / p.requestChars),
      ]),
    ),
    '',
  );
  const lastP = g.points[g.points.length - 1];
  const firstP = g.points[0];
  const overNew = lastP.nextMaxNewChars > 0 ? lastP.tokenizedChars.nextMax / lastP.nextMaxNewChars : null;
  const warmTop = g.run.profile?.warm[0];
  out.push(
    `Reading: the next turn's tokenizer work does not grow with the conversation (${int(firstP.tokenizedChars.next)} characters at N=${firstP.turn}, ` +
      `${int(lastP.tokenizedChars.next)} at N=${lastP.turn}), but a turn that brings a note tokenizes ${ratio(overNew, 1)} its new content. ` +
      `The rest of a warm assembly grows with the conversation (warm exponent ${exponent(g.exponents[g.exponents.length - 1]?.modes.warm ?? null)} from N=${firstP.turn} to N=${lastP.turn})` +
      (warmTop ? `; the largest self time in a warm assembly at N=${lastP.turn} is ${warmTop.name} (${warmTop.where}, ${pct(warmTop.share)}).` : '.'),
    '',
  );
  out.push('Growth exponent k (t ∝ N^k, from medians; 0 = flat, 1 = linear in the conversation):', '');
  out.push(
    table(
      ['N₁ → N₂', 'next', 'warm', 'cold'],
      g.exponents.map((e) => [`${e.from} → ${e.to}`, exponent(e.modes.next), exponent(e.modes.warm), exponent(e.modes.cold)]),
      ['l'],
    ),
    '',
  );
  const last = g.points[g.points.length - 1];
  const first = g.points[0];
  out.push(
    `Same-run ratios: cold ÷ warm at N=${last.turn}: ${ratio(g.coldOverWarmAtMax, 0)}; ` +
      `N=${last.turn} ÷ N=${first.turn}: next ${ratio(g.largestOverSmallest.next, 1)}, warm ${ratio(g.largestOverSmallest.warm, 1)}, cold ${ratio(g.largestOverSmallest.cold, 1)} ` +
      `(prompt tokens grew ${ratio(last.promptTokens / first.promptTokens, 0)}).`,
    '',
    `Peak memory of the growth process: heap used ${mib(g.run.peakHeapUsedMiB)}, RSS ${mib(g.run.peakRssMiB)} (heap and RSS per N above are after a forced GC).`,
    '',
  );
  if (g.run.profile) {
    const p = g.run.profile;
    out.push(`CPU profile at N=${p.turn} (V8 sampling profiler, self time):`, '');
    const rows = (list: typeof p.warm) => list.slice(0, 8).map((h) => `${h.name} (${h.where}) ${pct(h.share)}`);
    const warm = rows(p.warm);
    const cold = rows(p.cold);
    const n = Math.max(warm.length, cold.length);
    out.push(
      table(
        ['#', `warm (${o.profileRuns} assemblies)`, 'cold (1 assembly)'],
        Array.from({ length: n }, (_, i) => [String(i + 1), warm[i] ?? '', cold[i] ?? '']),
        ['r', 'l', 'l'],
      ),
      '',
    );
  }
  return out.join('\n');
}

function pluginSection(p: PluginFigures): string {
  const out: string[] = ['## 3. Plugin cost', ''];
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
  out.push(
    `main.js: ${mb(p.bundle.bytes)} (${kib(p.bundle.bytes)}; ${kib(p.bundle.gzipBytes)} gzipped)${p.bundle.rebuilt ? ', rebuilt for this run (esbuild production)' : ''}.` +
      (p.bundle.note ? ` Note: ${p.bundle.note}.` : ''),
    '',
    `Against Obsidian Sync's 5 MB line (Standard plan: larger plugin files do not sync): ${(100 * p.bundle.bytes / SYNC_LIMIT_BYTES).toFixed(0)} % of it${p.bundle.bytes <= SYNC_LIMIT_BYTES ? ' ✓' : ' ✗'}; ` +
      `Copilot 4.0.1's main.js is 5.08 MB (Strata's is ${ratio(p.bundle.bytes / COPILOT_BYTES, 2)} of it); issue 30's target 2.5 MB${p.bundle.bytes <= BUNDLE_TARGET_BYTES ? ' ✓' : ' ✗'}.`,
    '',
    `Largest contributors (esbuild metafile, minified bytes): ${p.breakdown.map((b) => `${b.name} ${kib(b.bytes)}`).join(', ')}.`,
    '',
    `Load in Chromium through the workbench (its \`obsidian\` shim, a copy of examples/vault), ${p.runs} fresh browser contexts:`,
    '',
    table(
      ['step', 'median', 'p95'],
      [
        ['main.js fetched, parsed, evaluated', ms(p.loadMs.median), ms(p.loadMs.p95)],
        ['… of which the download (local server)', ms(p.fetchMs.median), ms(p.fetchMs.p95)],
        ['new Plugin + onload()', ms(p.onloadMs.median), ms(p.onloadMs.p95)],
        ['total', ms(p.totalMs.median), ms(p.totalMs.p95)],
      ],
      ['l'],
    ),
    '',
    p.firstCount
      ? `First token count after loading (the bundle's tokenCounter with its packed rank tables, in a fresh Node process: evaluation, unpacking, one count; median of ${p.firstCount.runs}): ` +
          `gpt-4o (o200k_base) ${ms(p.firstCount.o200kMs)} (${ms(p.firstCount.o200kCpuMs)} of CPU), gpt-4 (cl100k_base, stored over o200k_base, which is unpacked first) ${ms(p.firstCount.cl100kMs)} (${ms(p.firstCount.cl100kCpuMs)} of CPU)` +
          (p.firstCount.o200kPhoneCpuMs === undefined ? '; ' : `; on a phone (fflate inflates, no Node zlib) gpt-4o takes ${ms(p.firstCount.o200kPhoneCpuMs)} of CPU here; `) +
          `target under 300 ms${p.firstCount.o200kMs < 300 ? ' ✓' : p.firstCount.o200kCpuMs < 300 ? ' in CPU time (the wall time waits on a loaded machine)' : ' ✗'}.` +
          (p.firstCount.o200kLongestMs === undefined || p.firstCount.cl100kLongestMs === undefined
            ? ''
            : ` Unpacked ahead by warmTokenizer (a pause between slices, as before a turn's counts), the longest stretch holding the thread: gpt-4o ${ms(p.firstCount.o200kLongestMs)}, gpt-4 ${ms(p.firstCount.cl100kLongestMs)} (target 50 ms${Math.max(p.firstCount.o200kLongestMs, p.firstCount.cl100kLongestMs) <= 50 ? ' ✓' : ' ✗'}).`)
      : '',
    '',
    `onload registered ${p.registered.commands} commands, ${p.registered.views} view(s), ${p.registered.settingTabs} settings tab(s), ${p.registered.ribbonIcons} ribbon icon(s).`,
    '',
  );
  if (p.errors.length > 0) out.push('**Load errors:**', '', '```', ...p.errors.map((e) => e.split('\n').slice(0, 6).join('\n')), '```', '');
  return out.join('\n');
}

function chatListSection(rows: readonly ChatListFigures[]): string {
  const t = (n: number) => (n < 10 ? n.toFixed(1) : int(n));
  return [
    '## Chat list, open and search',
    '',
    'Saved chats of 50 turns each (chat notes in memory: no disk), through the chat-note archive. The list reads each note\'s properties without decoding it; ' +
      'open decodes one note (warm: the id → path index is known; cold: a fresh archive lists the folder first; the note is not taken as kept from an earlier read, as a reopen in the session would, at no cost); search reads message bodies for a word that only one chat has. ' +
      'The last column is the same list made by decoding every note, as the archive did before (timed on 20 notes, scaled). Target: list and open under 100 ms at 1,000 chats.',
    '',
    '| chats | note size | list | open (warm) | open (cold) | search | decode every note |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${int(r.chats)} | ${int(r.noteBytes / 1024)} KiB | ${t(r.listMs)} ms | ${t(r.openMs)} ms | ${t(r.openColdMs)} ms | ${t(r.searchMs)} ms | ${t(r.decodeAllMs)} ms |`),
    '',
  ].join('\n');
}

export function renderMarkdown(r: BenchResults): string {
  const m = r.machine;
  const out = [
    '# Strata benchmarks',
    '',
    `${m.cores} cores (${m.cpu}), ${int(m.totalMemoryMiB)} MiB RAM, Node ${m.node}, ${m.platform}. Started ${r.startedAt}; took ${(r.durationMs / 1000).toFixed(0)} s${r.cpuMs === undefined ? '' : ` (${(r.cpuMs / 1000).toFixed(0)} s of CPU, the run and its child processes)`}; ` +
      `load average ${m.loadAverage.toFixed(1)} at the start, ${m.loadAverageAtEnd.toFixed(1)} at the end. ` +
      'Token figures are deterministic; times are from this run only (compare ratios, not absolute times, across runs).',
    '',
  ];
  if (r.sectionMs) {
    const cpu = r.sectionCpuMs ?? {};
    const parts = Object.entries(r.sectionMs).map(([name, t]) => `${name} ${(t / 1000).toFixed(0)} s${cpu[name] === undefined ? '' : ` (${(cpu[name] / 1000).toFixed(0)} s CPU)`}`);
    out.push(`Sections${r.long ? ' (--long)' : ''}, wall time (CPU time): ${parts.join(', ')}.`, '');
  }
  if (r.carriedOver) out.push(`Sections kept from the run of ${r.carriedOver.from} (not run this time): ${r.carriedOver.sections.join(', ')}.`, '');
  if (r.cache) out.push(cacheSection(r.cache));
  if (r.budget) out.push(budgetSection(r.budget));
  if (r.growth) out.push(growthSection(r.growth));
  if (r.chats) out.push(chatListSection(r.chats));
  if (r.frontmatter) out.push(frontmatterSection(r.frontmatter));
  if (r.tokens) out.push(tokensSection(r.tokens));
  if (r.edits) out.push(editsSection(r.edits));
  if (r.plugin) out.push(pluginSection(r.plugin));
  if (r.search) out.push(searchSection(r.search));
  if (r.agent) out.push(agentSection(r.agent));
  if (r.planning) out.push(planningSection(r.planning));
  if (r.wholeTurn) out.push(wholeTurnSection(r.wholeTurn, r.wholeTurnRuns ?? [], r.wholeTurnBefore ?? undefined));
  return `${out.join('\n').trimEnd()}\n`;
}
