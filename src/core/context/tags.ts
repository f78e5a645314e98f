import { parse as parseYaml } from 'yaml';
import { normalizeTag } from './items';

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\s*(?:\r?\n|$)/;
// Obsidian's inline tag: '#' after start or whitespace, not a heading ("# "), letters/digits/_-/ and nesting.
const INLINE_TAG = /(^|\s)#([\p{L}\p{N}_\-/]*[\p{L}_\-/][\p{L}\p{N}_\-/]*)/gu;

/** Tags of a note, from frontmatter (`tags`/`tag`, list or string) and inline, outside code. */
export function extractTags(text: string): string[] {
  const tags = new Set<string>();
  let body = text;
  const fm = FRONTMATTER.exec(text);
  if (fm) {
    body = text.slice(fm[0].length);
    for (const tag of frontmatterTags(fm[1])) tags.add(normalizeTag(tag).toLowerCase());
  }
  for (const match of stripCode(body).matchAll(INLINE_TAG)) tags.add(normalizeTag(match[2]).toLowerCase());
  return [...tags].sort();
}

function frontmatterTags(yamlText: string): string[] {
  let data: unknown;
  try {
    data = parseYaml(yamlText);
  } catch {
    return []; // Broken frontmatter: Obsidian ignores it too.
  }
  if (!data || typeof data !== 'object') return [];
  const record = data as Record<string, unknown>;
  const raw = record.tags ?? record.tag;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[,\s]+/) : [];
  return list.filter((t): t is string => typeof t === 'string' && t.trim().length > 0);
}

function stripCode(text: string): string {
  return text.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
}

/** Does a note tag match the wanted tag? Nested tags match their parents (#a/b matches #a). */
export function tagMatches(noteTag: string, wanted: string): boolean {
  const a = noteTag.toLowerCase();
  const b = normalizeTag(wanted).toLowerCase();
  return a === b || a.startsWith(`${b}/`);
}
