import { applyTurn } from './applyScript';
import type { Exchange } from './context';
import { plannerTurn, type PlannerView } from './plannerScript';
import { imageCount, type PromptBlock } from './prompt';
import { scriptedReply, type ScriptedReply, type ToolConversation } from './toolScript';

/**
 * What a request is answered with, on every API: a planner or summary request gets its scripted
 * plan or summary (./plannerScript.ts), any other the scripted tool calls or the deterministic reply
 * (./toolScript.ts, ./reply.ts). 'gone' when the client left during a scripted wait.
 */
export async function turnReply(
  ex: Pick<Exchange, 'api' | 'wait'>,
  view: PlannerView,
  conversation: ToolConversation,
  blocks: readonly PromptBlock[],
): Promise<ScriptedReply | 'gone'> {
  // "Apply to note" and "Edit with Strata" (./applyScript.ts).
  const applied = applyTurn(view);
  if (applied) return applied;
  const planned = await plannerTurn(ex, view);
  return (
    planned ??
    scriptedReply(
      conversation,
      blocks.map((b) => b.text),
      imageCount(blocks),
    )
  );
}
