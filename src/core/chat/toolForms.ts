import type { ToolFormPlanner } from '../engine/toolForms';
import { DEFAULT_TOOL_FORMS, planToolForms } from '../planning/toolArtifacts';
import { modelSummarizer } from '../planning/summarize';
import type { SummaryCache } from '../planning/summaryCache';
import type { ProviderFactory } from '../ports/providerFactory';
import type { StrataSettings } from '../settings/settings';
import { tokenCounterFor } from '../tokens/tokenCounter';
import type { Usage } from '../usage';

/**
 * What a compaction does with the kept turns' earlier tool outputs, by the context planning setting:
 * off, nothing (verbatim, masked); heuristic, the offline digests; auto, a summary by the summary
 * model for a large output (when summaries are on), the digest otherwise.
 */
export function toolFormPlannerFor(
  settings: StrataSettings,
  chat: { readonly provider: string; readonly model: string },
  deps: { readonly providers: ProviderFactory; readonly cache?: SummaryCache; readonly costOf?: (model: string, usage: Usage) => number | null },
): ToolFormPlanner | undefined {
  if (settings.contextPlanning === 'off') return undefined;
  const counter = tokenCounterFor(chat.model);
  const summarizer = settings.contextPlanning === 'auto' && settings.summarize ? modelSummarizer(settings, chat, { providers: deps.providers, ...(deps.costOf ? { costOf: deps.costOf } : {}) }) : null;
  const options = { ...DEFAULT_TOOL_FORMS, summarizer, ...(deps.cache ? { cache: deps.cache } : {}) };
  return (kept, previous, signal) => planToolForms(kept, previous, counter, options, signal);
}
