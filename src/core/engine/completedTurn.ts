import type { TurnAssembly } from './turnAssembly';
import type { HistoryTurn } from './types';

/** What a turn's user message carried as it was sent: everything history needs to replay it byte for byte. */
export interface SentTurn extends Omit<HistoryTurn, 'turn'> {
  readonly turn: number;
  readonly userText: string;
  readonly model: string;
}

/** Read off an assembly: the L5 text, the dynamic L1 fragments, the tool outputs, references, problems and images. */
export function sentTurnOf(assembly: TurnAssembly): SentTurn {
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
