/**
 * npm run bench [-- --quick] [-- --long] [-- --only cache,budget,growth,chats,frontmatter,plugin,search,agent,planning,wholeTurn,tokens,edits] [-- --no-profile]
 * By default the long parts are left out (143 s of wall time, 110 s of CPU on the shared 2-core machine at
 * load 5, 27 Nov 2026; the report prints each section's wall and CPU time); --long adds the
 * 10,000-note search vault, the search index at 10,000 and 25,000 notes (2,000 by default) and the
 * uncached whole turns (FsVault: the disk every time).
 * Cache efficiency, budgets and condensing, assembly speed and growth, the chat list, chat-note frontmatter size, plugin cost, vault search, the agent loop's cached share per step,
 * artifact planning over more than the window, whole turns through the controller, in one run: a markdown report on stdout, the same figures as JSON in bench-results/. Progress goes to stderr.
 * With --only, latest.json keeps the other sections' figures from the run before (named in `carriedOver`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureBudget } from './budget/section';
import { measureLibraryChat } from './budget/librarySection';
import { measureCacheEfficiency } from './cache/efficiency';
import { measureChatList } from './chats/section';
import { measureFrontmatter } from './frontmatter/section';
import { measureGrowth } from './growth/section';
import type { GrowthOptions } from './growth/worker';
import { cpuMsSoFar } from './lib/cpu';
import { machineInfo } from './lib/machine';
import { bundleBreakdown } from './plugin/bundleBreakdown';
import { measureFirstCount } from './plugin/firstCount';
import { measurePluginCost } from './plugin/section';
import { renderMarkdown, type BenchResults } from './report/markdown';
import { measureSearch } from './search/section';
import { measureAgent } from './agent/section';
import { measureWholeTurn } from './wholeTurn/section';
import { measurePlanning } from './planning/section';
import { measureTokens } from './tokens/section';
import { measureEdits } from './edits/section';

const SECTIONS = ['cache', 'budget', 'growth', 'chats', 'frontmatter', 'plugin', 'search', 'agent', 'planning', 'wholeTurn', 'tokens', 'edits'] as const;
type Section = (typeof SECTIONS)[number];

interface Args {
  quick: boolean;
  long: boolean;
  profile: boolean;
  only: Set<Section>;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { quick: false, long: false, profile: true, only: new Set(SECTIONS) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') args.quick = true;
    else if (arg === '--long') args.long = true;
    else if (arg === '--no-profile') args.profile = false;
    else if (arg === '--only') {
      const list = (argv[++i] ?? '').split(',').filter(Boolean);
      const bad = list.filter((s) => !(SECTIONS as readonly string[]).includes(s));
      if (list.length === 0 || bad.length > 0) throw new Error(`--only takes a comma-separated list of ${SECTIONS.join(', ')}`);
      args.only = new Set(list as Section[]);
    } else throw new Error(`unknown argument ${arg}; usage: bench [--quick] [--long] [--only ${SECTIONS.join(',')}] [--no-profile]`);
  }
  return args;
}

/**
 * A run of some sections keeps the others' figures from the previous latest.json (a partial run must
 * not wipe what a longer one measured); the sections carried over are named.
 */
function carryOver(fresh: BenchResults, latest: string, ran: ReadonlySet<Section>): BenchResults {
  if (!existsSync(latest)) return fresh;
  let previous: Partial<BenchResults>;
  try {
    previous = JSON.parse(readFileSync(latest, 'utf8')) as Partial<BenchResults>;
  } catch {
    return fresh;
  }
  const merged: Record<string, unknown> = { ...fresh };
  const carried: string[] = [];
  for (const section of SECTIONS) {
    const old = previous[section];
    if (ran.has(section) || old === null || old === undefined) continue;
    merged[section] = old;
    if (section === 'wholeTurn') merged.wholeTurnRuns = previous.wholeTurnRuns ?? null;
    if (previous.sectionMs?.[section] !== undefined) merged.sectionMs = { ...(merged.sectionMs as Record<string, number>), [section]: previous.sectionMs[section] };
    if (previous.sectionCpuMs?.[section] !== undefined) merged.sectionCpuMs = { ...(merged.sectionCpuMs as Record<string, number>), [section]: previous.sectionCpuMs[section] };
    carried.push(section);
  }
  if (carried.length === 0) return fresh;
  merged.carriedOver = { sections: carried, from: previous.startedAt ?? 'unknown' };
  return merged as unknown as BenchResults;
}

function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const root = path.resolve(__dirname, '..');
  const outDir = path.join(root, 'bench-results');
  const started = new Date();
  const machine = machineInfo();
  const t0 = performance.now();
  const cpu0 = cpuMsSoFar();
  // How long each section took, wall and CPU (this process and its children), for the README's timings
  // (progress shows them as they end). CPU time is what a loaded machine stretches least.
  const sectionMs: Record<string, number> = {};
  const sectionCpuMs: Record<string, number> = {};
  let sectionStart = performance.now();
  let sectionCpuStart = cpu0;
  const begin = () => {
    sectionStart = performance.now();
    sectionCpuStart = cpuMsSoFar();
  };
  const ended = (section: Section) => {
    sectionMs[section] = performance.now() - sectionStart;
    sectionCpuMs[section] = cpuMsSoFar() - sectionCpuStart;
    progress(`${section}: ${(sectionMs[section] / 1000).toFixed(0)} s, ${(sectionCpuMs[section] / 1000).toFixed(0)} s of CPU (load ${os.loadavg()[0].toFixed(1)})`);
  };

  let cache: BenchResults['cache'] = null;
  if (args.only.has('cache')) {
    begin();
    progress('cache efficiency: replaying scenarios…');
    cache = await measureCacheEfficiency(root);
    ended('cache');
  }

  let budget: BenchResults['budget'] = null;
  if (args.only.has('budget')) {
    begin();
    progress('budget: replaying budget scenarios under a 12k budget…');
    const started = performance.now();
    const scenarios = await measureBudget(root);
    progress('budget: the library under the budget (library-chat, 156 turns)…');
    const library = await measureLibraryChat(root);
    budget = { scenarios, library, ms: performance.now() - started };
    ended('budget');
  }

  let growth: BenchResults['growth'] = null;
  if (args.only.has('growth')) {
    begin();
    const options: GrowthOptions = args.quick
      ? { turns: 200, notes: 40, checkpoints: [10, 50, 200], warmRuns: 7, coldRuns: [5, 5, 3], nextWindow: 5, model: 'gpt-4o', profileRuns: args.profile ? 20 : 0, warmupTurns: 60 }
      : // Cold assemblies at 1,000 turns take over a second each and their median moved 4 % between 3 and 5 samples: 3.
        { turns: 1000, notes: 200, checkpoints: [10, 50, 200, 1000], warmRuns: 21, coldRuns: [15, 11, 7, 3], nextWindow: 9, model: 'gpt-4o', profileRuns: args.profile ? 50 : 0, warmupTurns: 60 };
    progress(`assembly growth: ${options.turns} turns, ${options.notes} notes, in a child process…`);
    growth = measureGrowth(root, options);
    ended('growth');
  }

  let chats: BenchResults['chats'] = null;
  if (args.only.has('chats')) {
    begin();
    progress('chat list: list, open and search over many chat notes…');
    const rows = [];
    for (const count of args.quick ? [200] : [200, 1000]) rows.push(await measureChatList(root, count, 50, args.quick ? 3 : 7));
    chats = rows;
    ended('chats');
  }

  let frontmatter: BenchResults['frontmatter'] = null;
  if (args.only.has('frontmatter')) {
    begin();
    progress('chat-note frontmatter: chats of 10 to 1,000 turns…');
    frontmatter = await measureFrontmatter(args.quick ? [10, 50, 200] : [10, 50, 200, 1000]);
    ended('frontmatter');
  }

  let plugin: BenchResults['plugin'] = null;
  if (args.only.has('plugin')) {
    begin();
    progress('plugin cost: bundle and fresh loads…');
    const cost = await measurePluginCost(root, args.quick ? 5 : 15);
    plugin = { ...cost, breakdown: await bundleBreakdown(root), firstCount: await measureFirstCount(root, args.quick ? 3 : 5) };
    ended('plugin');
  }

  let search: BenchResults['search'] = null;
  if (args.only.has('search')) {
    begin();
    progress('vault search: the evaluation set over the shared corpus…');
    search = await measureSearch(root, args.long ? 10_000 : 2_000, progress, args.long ? [10_000, 25_000] : [2_000]);
    ended('search');
  }

  let agent: BenchResults['agent'] = null;
  if (args.only.has('agent')) {
    begin();
    progress('agent loop: a scripted agent chat on each API, through the local provider server…');
    agent = await measureAgent(root);
    ended('agent');
  }

  let planning: BenchResults['planning'] = null;
  if (args.only.has('planning')) {
    begin();
    progress('artifact planning: the planning scenario with the deterministic planner and the planner model, sticky or not…');
    planning = await measurePlanning(root);
    if (!planning) progress('artifact planning: skipped (no ../shared/corpus/tasks-docs beside the checkout)');
    ended('planning');
  }

  let wholeTurn: BenchResults['wholeTurn'] = null;
  let wholeTurnRuns: BenchResults['wholeTurnRuns'] = null;
  if (args.only.has('wholeTurn')) {
    begin();
    const figures = measureWholeTurn(
      root,
      args.quick
        ? { notes: 1000, turns: 200, checkpoints: [10, 50, 200], window: 5, retries: 3, warmupTurns: 60, shortChats: 12 }
        : { notes: 1000, turns: 1000, checkpoints: [10, 50, 200, 1000], window: 7, retries: 3, warmupTurns: 60, shortChats: 24 },
      args.long ? ['cached', 'uncached'] : ['cached'],
      progress,
    );
    wholeTurn = figures.rows;
    wholeTurnRuns = figures.runs;
    ended('wholeTurn');
  }
  let tokens: BenchResults['tokens'] = null;
  if (args.only.has('tokens')) {
    begin();
    progress('token counting: long runs, ordinary text, a pasted note of long runs through the controller…');
    tokens = await measureTokens(root);
    ended('tokens');
  }

  let edits: BenchResults['edits'] = null;
  if (args.only.has('edits')) {
    begin();
    progress('edit proposals: jsdiff and diff-match-patch on a 1 MB note, proposal and apply…');
    edits = await measureEdits(root, args.quick ? 3 : 7);
    ended('edits');
  }

  // The figures from before issue 16's changes (the same worker run on commit 863d8c4), shown next to this run's.
  const beforeFile = path.join(root, 'bench', 'wholeTurn', 'before.json');
  const wholeTurnBefore = wholeTurn && existsSync(beforeFile) ? ((JSON.parse(readFileSync(beforeFile, 'utf8')) as Partial<BenchResults>).wholeTurn ?? null) : null;

  const fresh: BenchResults = {
    machine: { ...machine, loadAverageAtEnd: os.loadavg()[0] },
    startedAt: started.toISOString(),
    durationMs: performance.now() - t0,
    cpuMs: cpuMsSoFar() - cpu0,
    long: args.long,
    sectionMs,
    sectionCpuMs,
    cache,
    budget,
    growth,
    chats,
    frontmatter,
    plugin,
    search,
    agent,
    planning,
    wholeTurn,
    wholeTurnRuns,
    tokens,
    edits,
    ...(wholeTurnBefore ? { wholeTurnBefore } : {}),
  };
  mkdirSync(outDir, { recursive: true });
  const results = args.only.size < SECTIONS.length ? carryOver(fresh, path.join(outDir, 'latest.json'), args.only) : fresh;
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(path.join(outDir, `bench-${stamp}.json`), json);
  writeFileSync(path.join(outDir, 'latest.json'), json);
  const markdown = renderMarkdown(results);
  writeFileSync(path.join(outDir, 'latest.md'), markdown);
  process.stdout.write(markdown);
  progress(`done in ${(results.durationMs / 1000).toFixed(0)} s, ${((results.cpuMs ?? 0) / 1000).toFixed(0)} s of CPU; JSON in ${path.relative(root, outDir)}/latest.json`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
