import { z } from 'zod';
import { DEFAULT_MAX_ITEM_CHARS } from './context/resolver';

/**
 * How long each kind of value read from stored data (a chat note's properties and chat data lines)
 * may be. A chat note is a file anyone can edit or paste: a 1 MB `id` on one chat data line used to
 * load without a word and make the next send take 28 s (every save rewrote it). Over its limit, a
 * value fails its schema like any other bad value: its fallback point drops it (or takes the
 * default) with a warning naming the field, and the rest of the chat reads as before. The limits
 * sit far above anything the plugin writes.
 */
export const STORED_LIMITS = {
  /** Ids, hashes, provider and model names, enum-like words, session ids. */
  name: 1_000,
  /** Vault paths, URLs, titles, tags. */
  path: 8_192,
  /** Reasons, details, rationales, error texts, a step's text, token-count lines. */
  text: 100_000,
  /** A library item's kept content: as much as one item may hold when attached. */
  content: DEFAULT_MAX_ITEM_CHARS,
  /** Entries of a list inside one record (the chat's own lists are one line per entry). */
  list: 10_000,
  /** A tool call's arguments, as JSON. */
  json: 100_000,
} as const;

export const Name = z.string().max(STORED_LIMITS.name);
export const PathText = z.string().max(STORED_LIMITS.path);
export const Text = z.string().max(STORED_LIMITS.text);
export const Content = z.string().max(STORED_LIMITS.content);

/** A list of at most STORED_LIMITS.list entries. */
export function listOf<T extends z.ZodType>(element: T) {
  return z.array(element).max(STORED_LIMITS.list);
}

/** Text with something in it besides spaces, at most `max` characters. */
export function nonBlank(max: number) {
  return z
    .string()
    .max(max)
    .refine((text) => text.trim() !== '', { error: 'expected non-empty text' });
}

/** `schema`, whose value is at most `max` characters as JSON (tool call arguments hold any JSON). */
export function jsonAtMost<T extends z.ZodType>(max: number, schema: T) {
  return schema.refine((value) => jsonLength(value) <= max, { error: `expected at most ${max} characters of JSON` });
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Infinity;
  }
}
