/**
 * The demo: replays examples/scenarios/demo.json over the sample vault in examples/vault through the
 * context engine, the MessageCompiler and a real LangChain provider, and prints per turn what was
 * sent and the cached share the provider reported.
 *
 * By default it starts the project's local provider server (offline, OpenAI's caching rule). To talk
 * to a real endpoint instead: STRATA_BASE_URL (e.g. https://api.openai.com/v1 or
 * http://localhost:11434/v1), STRATA_MODEL, STRATA_API_KEY, and optionally STRATA_PROVIDER
 * (openai | openai-compatible | openai-responses | anthropic; default openai-compatible).
 *
 * Every request keeps to the model's budget (the settings' defaults), and large attachments are
 * planned by the deterministic planner (no extra model call), as the plugin does offline.
 */
import path from 'node:path';
import { formatTable } from '../src/core/scenario/inspectFormat';
import { inputBudget } from '../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS } from '../src/core/settings/budgetSettings';
import { ExtractiveSummarizer } from '../src/core/budget/summarizer';
import { SummaryCache } from '../src/core/planning/summaryCache';
import { cachedShare } from '../src/core/usage';
import { startProviderServer, type ProviderServer } from '../testing/providerServer';
import { liveReplay, type LiveReplayed } from '../src/node/liveReplay';
import { FsVault } from '../src/node/fsVault';
import { loadScenarioFile } from '../src/node/scenarioFiles';
import { createProvider, formatCost, sumCosts } from '../src/providers';
import type { ProviderKind } from '../src/core/ports/chatModel';

const KINDS: readonly ProviderKind[] = ['openai', 'openai-compatible', 'openai-responses', 'anthropic'];

async function main(): Promise<void> {
  const file = path.join(__dirname, '..', 'examples', 'scenarios', 'demo.json');
  const { scenario, vaultDir } = loadScenarioFile(file);
  const remote = process.env.STRATA_BASE_URL;
  let server: ProviderServer | null = null;
  let baseUrl: string;
  let kind: ProviderKind;
  let model = process.env.STRATA_MODEL ?? scenario.model;
  if (remote) {
    baseUrl = remote;
    kind = (process.env.STRATA_PROVIDER ?? 'openai-compatible') as ProviderKind;
    if (!KINDS.includes(kind)) throw new Error(`STRATA_PROVIDER must be one of ${KINDS.join(', ')}`);
  } else {
    server = await startProviderServer();
    baseUrl = `${server.url}/v1`;
    kind = 'openai';
    model = scenario.model;
  }
  const apiKey = process.env.STRATA_API_KEY ?? (remote ? '' : 'local-demo-key');
  const provider = createProvider(
    { id: remote ? 'remote' : 'local-server', kind, model, baseUrl: kind === 'anthropic' ? baseUrl.replace(/\/v1\/?$/, '') : baseUrl, secretId: 'demo' },
    { getSecret: () => apiKey || null, fetch: globalThis.fetch },
  );
  try {
    const settings = DEFAULT_BUDGET_SETTINGS;
    const budget = inputBudget(model, settings);
    const turns = await liveReplay(scenario, new FsVault(vaultDir), provider, {
      cacheKey: `demo-${scenario.name}`,
      budget: { budget, settings, summarizer: new ExtractiveSummarizer(model) },
      planning: { mode: 'heuristic', planner: null, summarizer: null, cache: new SummaryCache() },
    });
    const where = remote ? `${kind} at ${remote}` : `the local provider server (${server?.url}, OpenAI caching rules)`;
    process.stdout.write(formatTable(`Strata demo: "${scenario.name}" over examples/vault, ${model} via ${where}`, turns, { budget }));
    process.stdout.write(`\n${LEGEND}\n\n${providerTable(turns)}`);
    process.stdout.write(`\n${countsCompared(turns)}\n`);
  } finally {
    await server?.close();
  }
}

/** What the first table's columns mean: a reader of the demo meets them there first. */
const LEGEND = [
  'How to read the table above (tokens per request, by layer of the prompt):',
  '  L1      instructions: the system prompt, your memory, the project\'s prompt (most stable, sent first)',
  '  L2      the Context Library: every note of earlier turns, each sent once, in the cached prefix',
  '  L3      this turn\'s notes: new ones in full, ones already in L2 referred to by name',
  '  L4      the conversation so far (earlier messages and replies)',
  '  L5      your message',
  '  prompt  the whole request, as Strata counts it before sending',
  '  full    notes sent in full this turn (new, or changed since they were sent)',
  '  ref     notes already in the library, referred to by name instead of sent again',
  '  prefix  "extends": the request starts with the previous one word for word, so the provider',
  '          can serve that part from its cache; otherwise the reason the cached prefix restarts',
].join('\n');

/**
 * Why the two prompt totals differ: Strata counts each request before it goes (the model's
 * tokenizer over the compiled messages, plus OpenAI's published framing of 3 tokens a message and 3
 * to prime the reply); the provider counts what it received, with its own framing of roles and
 * message boundaries. The two agree to a few tokens a request, and only the provider's is billed.
 */
function countsCompared(turns: readonly LiveReplayed[]): string {
  const reported = turns.filter((t) => t.usageReported);
  if (reported.length === 0) return 'The provider reported no usage: only Strata\'s own count is shown above.';
  const ours = reported.reduce((s, t) => s + t.assembly.promptTokens, 0);
  const theirs = reported.reduce((s, t) => s + t.usage.inputTokens, 0);
  const diff = theirs - ours;
  return [
    `Strata counted ${ours.toLocaleString('en-US')} prompt tokens, the provider reported ${theirs.toLocaleString('en-US')} (${diff >= 0 ? '+' : ''}${diff}, ${((Math.abs(diff) / Math.max(1, ours)) * 100).toFixed(2)} %).`,
    'They differ because Strata counts each request before sending it (the model\'s tokenizer over the',
    'messages, plus a fixed 3 tokens of framing a message and 3 to start the reply, from OpenAI\'s published',
    'recipe), while the provider counts what it received with its own framing of roles and message',
    'boundaries. Strata\'s count decides the budget; the provider\'s is what is billed.',
  ].join('\n');
}

function providerTable(turns: readonly LiveReplayed[]): string {
  const header = ['turn', 'mode', 'input', 'cached', 'share', 'output', 'cost', 'reply'];
  const rows = turns.map((t) => [
    String(t.turn),
    t.compiled.mode,
    t.usageReported ? String(t.usage.inputTokens) : 'n/a',
    t.usageReported ? String(t.usage.cachedReadTokens) : 'n/a',
    t.usageReported ? `${(cachedShare(t.usage) * 100).toFixed(0)} %` : 'n/a',
    t.usageReported ? String(t.usage.outputTokens) : 'n/a',
    formatCost(t.cost),
    t.reply.replace(/\s+/g, ' ').slice(0, 60),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  const input = turns.reduce((s, t) => s + t.usage.inputTokens, 0);
  const cached = turns.reduce((s, t) => s + t.usage.cachedReadTokens, 0);
  return [
    'What the provider reported, per turn:',
    '',
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    '',
    `Prompt tokens ${input}, served from cache ${cached} (${input ? ((cached / input) * 100).toFixed(0) : 0} %); cost ${formatCost(sumCosts(turns.map((t) => t.cost)))}.`,
    '',
  ].join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
