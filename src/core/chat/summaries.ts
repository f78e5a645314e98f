import { inputBudget } from '../budget/budget';
import { ProviderSummarizer, type Summarizer } from '../budget/summarizer';
import { budgetSettingsFor, findProvider, summaryTarget, type StrataSettings } from '../settings/settings';
import type { ProviderFactory } from '../ports/providerFactory';

/** How long a summary may take before the compaction omits the turns instead (the user's stop is separate). */
export const SUMMARY_TIMEOUT_MS = 90_000;

/** Share of the summary model's budget one summarizing call may fill with transcript. */
const CHUNK_SHARE = 0.6;

/**
 * The summarizer for a chat: null when summaries are off. The provider is built when a summary is
 * needed, so a missing API key or provider fails that summary (the turns are then omitted, said in a
 * warning), not the turn.
 */
export function summarizerFor(settings: StrataSettings, chatProvider: string, chatModel: string, providers: ProviderFactory): Summarizer | null {
  if (!settings.summarize) return null;
  const target = summaryTarget(settings, chatProvider, chatModel);
  return {
    summarize(input, signal) {
      const providerSettings = findProvider(settings, target.provider);
      if (!providerSettings) return Promise.reject(new Error(`no provider "${target.provider}" is configured for summaries`));
      const provider = providers(providerSettings, target.model);
      const budget = inputBudget(target.model, budgetSettingsFor(settings, target.provider, target.model), settings.contextWindows);
      return new ProviderSummarizer(provider, Math.floor(budget.tokens * CHUNK_SHARE)).summarize(input, signal);
    },
  };
}
