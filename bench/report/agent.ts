import type { AgentRun } from '../../src/node/agentRun';
import { int, pct, table } from './format';

const API_NAMES: Record<AgentRun['api'], string> = {
  openai: 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses (session: later steps send only the results)',
  anthropic: 'Anthropic Messages (cache_control on the newest tool result)',
  gemini: 'Gemini generateContent (implicit prefix hits; an explicit entry once the system message reaches the minimum)',
};

/** Per API, per turn and loop step: what Strata counted, what the provider read, the cached share. */
export function agentSection(runs: readonly AgentRun[]): string {
  const out: string[] = ['## Agent loop: cached share per step', ''];
  out.push(
    'One scripted agent chat over examples/vault (turn 1: localSearch, readNote, listFolder, getBacklinks, then the answer; ' +
      'turn 2: readNote, then the answer), through the real controller and LangChain clients to the local provider server. ' +
      'Each step\'s request is the previous one plus the step, so the provider\'s cache serves all but the new results. ' +
      '"Strata counted" includes the tool definitions; providers count with their own tokenizers and wrappers.',
    '',
  );
  for (const run of runs) {
    out.push(`### ${API_NAMES[run.api]} (${run.model})`, '');
    out.push(
      table(
        ['turn', 'step', 'tools called', 'Strata counted', 'prompt tokens', 'cached', 'cached share'],
        run.turns.flatMap((t) =>
          t.steps.map((s) => [String(t.turn), String(s.step), s.calls.join(', ') || '(answer)', int(s.promptTokens), int(s.inputTokens), int(s.cachedTokens), pct(s.cachedShare)]),
        ),
        ['r', 'r', 'l'],
      ),
      '',
    );
  }
  return out.join('\n');
}
