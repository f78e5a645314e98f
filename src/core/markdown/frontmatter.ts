import { Document, parse } from 'yaml';

export interface SplitNote {
  /** YAML text between the fences, or null when the note has no (closed) frontmatter. */
  readonly yaml: string | null;
  readonly body: string;
}

/**
 * Split `---\n…\n---\n` from the body. A note without a closed frontmatter is all body. A leading
 * BOM is skipped, and any line break (LF, CRLF, CR) ends a line. When `bodyStarts` is given, a
 * closing fence after the first line it accepts does not count (a lost closing fence must not
 * swallow the messages below it).
 */
export function splitFrontmatter(text: string, bodyStarts?: (line: string) => boolean): SplitNote {
  const open = /^\ufeff?---[ \t]*(?:\r\n?|\n)/.exec(text);
  if (!open) return { yaml: null, body: text };
  const lineBreak = /\r\n?|\n/g;
  lineBreak.lastIndex = open[0].length;
  let offset = open[0].length;
  for (;;) {
    const found = lineBreak.exec(text);
    const line = text.slice(offset, found ? found.index : text.length);
    if (/^(?:---|\.\.\.)[ \t]*$/.test(line)) {
      return { yaml: text.slice(open[0].length, offset), body: found ? text.slice(found.index + found[0].length) : '' };
    }
    if (bodyStarts?.(line) || !found) break;
    offset = found.index + found[0].length;
  }
  return { yaml: null, body: text };
}

/** Parse frontmatter YAML; never throws: a broken block yields null and the reason. */
export function parseYaml(yaml: string): { value: Record<string, unknown> | null; error?: string } {
  try {
    const value: unknown = parse(yaml, { uniqueKeys: false, maxAliasCount: 100 });
    if (value === null || value === undefined) return { value: {} };
    if (typeof value !== 'object' || Array.isArray(value)) return { value: null, error: 'the frontmatter is not a set of properties' };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { value: null, error: `the frontmatter is not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
}

/** Deterministic YAML for the frontmatter: block style, no line folding. */
export function stringifyYaml(value: Record<string, unknown>): string {
  return new Document(value).toString({ lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false });
}
