import type { TurnAssembly } from './turnAssembly';
import type { HistoryTurn } from './types';

/**
 * A turn the model answered, as the engine remembers it: everything history needs to render it
 * again byte for byte. The chat's own record of it (ChatTurn, conversation/model.ts) holds the same
 * parts; both are read off the one assembly that was sent (sentTurnOf), so they cannot differ.
 */
export interface CompletedTurn extends HistoryTurn {
  readonly userText: string;
  readonly reply: string;
  readonly model: string;
}

/** What a turn's request carried, read off its assembly: the L5 text, the dynamic L1 fragments, the tool outputs, references, problems and images. */
export function sentTurnOf(assembly: TurnAssembly): Omit<CompletedTurn, 'reply'> {
  const { envelope } = assembly;
  return {
    turn: envelope.turn,
    userText: envelope.layers.L5.segments[0].text,
    model: envelope.model,
    dynamic: envelope.layers.L1.segments.filter((f) => f.lifecycle === 'dynamic').map((f) => ({ id: f.id, lifecycle: f.lifecycle, text: f.text })),
    tools: envelope.layers.L3.segments.flatMap((s) => (s.type === 'tool' ? [s.tool] : [])),
    referenced: envelope.referenced,
    problems: envelope.unresolved,
    ...(envelope.images && envelope.images.length > 0 ? { images: envelope.images } : {}),
  };
}
