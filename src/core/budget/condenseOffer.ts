/**
 * Whether Condense (the panel's button, the command) would free anything, decided without measuring:
 * a manual condense keeps the newest `keepMessages` messages word for word and never condenses a
 * turn twice (budget/plan.ts), so a chat with no answered turn older than those has nothing to give.
 * Null when it may condense; otherwise the reason, in the user's words, for the button's tooltip.
 * (A chat whose older turns are too short to be worth a summary is still told so after the click.)
 */
export function condenseBlocker(answeredTurns: number, condensedThrough: number, keepMessages: number): string | null {
  if (answeredTurns === 0) return 'Nothing to condense yet: the chat has no answered messages.';
  const keepTurns = Math.ceil(Math.max(0, keepMessages) / 2);
  if (answeredTurns - keepTurns > condensedThrough) return null;
  const kept = `the newest ${2 * keepTurns} messages always stay word for word (Keep messages in settings)`;
  if (condensedThrough > 0) return `Nothing more to condense: the earlier messages are condensed and ${kept}.`;
  return `Nothing to condense yet: ${kept}.`;
}
