import { formatSpend } from '../core/search/embedder';
import type { SemanticState } from './searchIndex';

/** The semantic search status line of the settings: what is embedded, what it cost, what went wrong. */
export function describeSemanticState(state: SemanticState): string {
  if (state.state === 'off') return 'Off: search ranks by words only.';
  if (state.state === 'problem') return `Not running: ${state.problem}`;
  const n = (x: number) => x.toLocaleString('en-US');
  const progress = state.chunks === 0 && state.embedding ? 'Starting' : `${n(Math.min(state.embedded, state.chunks))} of ${n(state.chunks)} sections embedded`;
  const parts = [`${progress} with ${state.model}${state.embedding ? ' (embedding now…)' : ''}.`, `So far: ${formatSpend(state.spend)}.`];
  if (state.error) parts.push(`Last error: ${state.error} Search uses words only where a section or the question has no embedding.`);
  return parts.join(' ');
}
