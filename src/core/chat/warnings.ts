/** Where a chat-level notice comes from: each source is cleared by its own event, never by matching text. */
export const WARNING_SOURCES = ['library', 'regenerate', 'reopened', 'save', 'note', 'condense'] as const;
export type WarningSource = (typeof WARNING_SOURCES)[number];

export interface ChatWarning {
  readonly source: WarningSource;
  readonly text: string;
}

export function withoutSources(warnings: readonly ChatWarning[], ...sources: WarningSource[]): ChatWarning[] {
  return warnings.filter((w) => !sources.includes(w.source));
}

/** Add warnings, leaving out any already shown (same source and text). */
export function withWarnings(warnings: readonly ChatWarning[], added: readonly ChatWarning[]): ChatWarning[] {
  const out = [...warnings];
  for (const w of added) if (!out.some((o) => o.source === w.source && o.text === w.text)) out.push(w);
  return out;
}
