import { inputBudget } from '../budget/budget';
import type { ProviderFactory } from '../ports/providerFactory';
import { budgetSettingsFor, findProvider, summaryTarget, type StrataSettings } from '../settings/settings';
import { tokenCounterFor } from '../tokens/tokenCounter';
import type { Usage } from '../usage';
import { extractOf } from './extract';
import type { Artifact } from './types';
import type { PlanCall } from '../conversation/records/plan';

/** How long one artifact summary may take before the plan sends an extract instead. */
export const ARTIFACT_SUMMARY_TIMEOUT_MS = 60_000;
/** Share of the summary model's budget the document may fill (the rest: instructions and the summary). */
const INPUT_SHARE = 0.6;

/** Writes the summary of one artifact for a focus, in at most `maxTokens` tokens. Throws on failure. */
export interface ArtifactSummarizer {
  summarize(artifact: Artifact, focus: string, maxTokens: number, signal: AbortSignal): Promise<{ readonly text: string; readonly model: string; readonly call: PlanCall }>;
}

/** The first line of the summary instructions: how the local provider server recognises a summary request. */
export const SUMMARY_MARKER = 'You summarize one document from an Obsidian vault for an assistant that will use the summary, instead of the document, to answer a question.';

export const ARTIFACT_SUMMARY_INSTRUCTIONS = [
  SUMMARY_MARKER,
  'Keep everything that bears on the focus you are given: facts, numbers, names, steps, settings, commands, decisions, and the headings they sit under.',
  'Leave out what does not bear on it. Do not answer the question yourself; do not add anything the document does not say.',
  'Write plain markdown, no preamble, within the length you are given.',
].join('\n');

/** The first line of a summary as sent: what it is, so the model never takes it for the whole text. */
export function summaryHeader(title: string, fullTokens: number, focus: string): string {
  return `[Summary of "${title}" (${fullTokens} tokens in full), focused on: ${focus}. Ask for the whole text if you need more.]`;
}

/**
 * The summarizer on the summary model (the setting, else the chat's own). A document larger than
 * the summary model takes is cut to its sections that best match the focus first (document order).
 */
export function modelSummarizer(
  settings: StrataSettings,
  chat: { readonly provider: string; readonly model: string },
  deps: { readonly providers: ProviderFactory; readonly costOf?: (model: string, usage: Usage) => number | null; readonly timeoutMs?: number },
): ArtifactSummarizer {
  const target = summaryTarget(settings, chat.provider, chat.model);
  return {
    async summarize(artifact, focus, maxTokens, signal) {
      const providerSettings = findProvider(settings, target.provider);
      if (!providerSettings) throw new Error(`no provider "${target.provider}" is configured for summaries`);
      const budget = inputBudget(target.model, budgetSettingsFor(settings, target.provider, target.model), settings.contextWindows);
      const room = Math.floor(budget.tokens * INPUT_SHARE);
      const counter = tokenCounterFor(target.model);
      let document = artifact.content;
      if (counter.count(document) > room) document = (await extractOf(artifact.title, artifact.content, focus, room, counter))?.text ?? document.slice(0, room * 3);
      const timeout = AbortSignal.timeout(deps.timeoutMs ?? ARTIFACT_SUMMARY_TIMEOUT_MS);
      const both = AbortSignal.any([signal, timeout]);
      const words = Math.max(50, Math.floor(maxTokens * 0.7));
      try {
        const result = await deps.providers(providerSettings, target.model).send({
          messages: [
            { role: 'system', content: ARTIFACT_SUMMARY_INSTRUCTIONS },
            { role: 'user', content: `Focus: ${focus}\nLength: at most ${words} words.\n\nDocument "${artifact.title}" (${artifact.source}):\n\n${document}` },
          ],
          signal: both,
        });
        const model = result.model ?? target.model;
        const cost = deps.costOf ? deps.costOf(model, result.usage) : null;
        return { text: result.text.trim(), model: `${target.provider}/${model}`, call: { kind: 'summary', provider: target.provider, model, usage: result.usage, cost } };
      } catch (error) {
        if (signal.aborted) throw error;
        if (timeout.aborted) throw new Error(`the summary timed out after ${deps.timeoutMs ?? ARTIFACT_SUMMARY_TIMEOUT_MS} ms`);
        throw error;
      }
    },
  };
}
