/**
 * Reading the plugin's own files (data.json, the search index, search-vectors.json,
 * artifact-summaries.json) so that no damage stops the plugin from loading: a file that is too
 * big is not read, one that is not JSON is read as far as it goes (data.json) or started over (the
 * others are caches, rebuilt from the vault), and the user is told once. Nothing here throws.
 */

/** Bytes beyond which a plugin file is not read at all (JSON.parse of it would hold the app). */
export const PLUGIN_FILE_LIMITS = {
  'data.json': 16 * 1024 * 1024,
  'search-index.json': 256 * 1024 * 1024,
  'search-vectors.json': 512 * 1024 * 1024,
  'artifact-summaries.json': 16 * 1024 * 1024,
} as const;

export type PluginFileName = keyof typeof PLUGIN_FILE_LIMITS;

/** Where a damaged data.json is copied before the plugin writes its settings again. */
export const DAMAGED_SETTINGS_COPY = 'data.damaged.json';

/** What a read gave: the parsed value (null: none), and what to tell the user (null: nothing). */
export interface PluginFileRead {
  readonly value: unknown;
  readonly problem: string | null;
}

/** A plugin file read through `stat` and `read` (the adapter's, or node:fs). */
export interface PluginFileAccess {
  size(): Promise<number | null>;
  read(): Promise<string>;
}

/** The file's text, or null with the reason when missing (no reason), too big or unreadable. */
export async function readPluginText(name: PluginFileName, file: PluginFileAccess): Promise<{ readonly text: string | null; readonly problem: string | null }> {
  let size: number | null;
  try {
    size = await file.size();
  } catch {
    size = null;
  }
  if (size === null) return { text: null, problem: null };
  const limit = PLUGIN_FILE_LIMITS[name];
  if (size > limit) return { text: null, problem: `${name} is ${mb(size)}, over the ${mb(limit)} this plugin reads; it was not read` };
  try {
    return { text: await file.read(), problem: null };
  } catch (error) {
    return { text: null, problem: `${name} could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The file parsed as JSON, or null with the reason when missing, too big, unreadable or not JSON. */
export async function readPluginJson(name: PluginFileName, file: PluginFileAccess): Promise<PluginFileRead & { readonly text: string | null }> {
  const { text, problem } = await readPluginText(name, file);
  if (text === null || text.trim() === '') return { value: null, problem, text };
  try {
    return { value: JSON.parse(text) as unknown, problem: null, text };
  } catch {
    return { value: null, problem: `${name} is not valid JSON (damaged or cut short)`, text };
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** data.json read as far as it goes (readSettingsText), with the text to keep aside when it was damaged. */
export async function readSettingsFile(file: PluginFileAccess): Promise<PluginFileRead & { readonly text: string | null }> {
  const read = await readPluginJson('data.json', file);
  if (read.text === null || read.text.trim() === '' || (read.problem === null && isObject(read.value))) return read;
  return { ...readSettingsText(read.text), text: read.text };
}

/**
 * The settings data.json holds, as far as it can be read: a file cut short (a crash while saving, a
 * sync conflict) gives every setting written in full before the cut. Null when nothing is readable.
 */
export function readSettingsText(text: string): PluginFileRead {
  try {
    const value = JSON.parse(text) as unknown;
    if (isObject(value)) return { value, problem: null };
    return { value: null, problem: 'data.json does not hold an object of settings; the defaults are used' };
  } catch {
    const salvaged = salvageJsonObject(text);
    if (salvaged && Object.keys(salvaged).length > 0) {
      return { value: salvaged, problem: `data.json is damaged; the ${Object.keys(salvaged).length} settings written in full before the damage are read, the rest are defaults` };
    }
    return { value: null, problem: 'data.json is damaged and holds no readable settings; the defaults are used' };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The top-level object of a JSON text cut short or damaged after some point: the longest prefix
 * that ends after a complete top-level member, closed. One pass, linear in the text.
 */
export function salvageJsonObject(text: string): Record<string, unknown> | null {
  const start = text.indexOf('{');
  if (start < 0 || text.slice(0, start).trim() !== '') return null;
  let depth = 0;
  let inString = false;
  /** Ends of prefixes that close after a whole top-level member (a comma, or a nested value closed). */
  const ends: number[] = [];
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth <= 0) break;
      if (depth === 1) ends.push(i + 1);
    } else if (c === ',' && depth === 1) ends.push(i);
  }
  // From the longest; a few tries at most (damage in the middle makes the later ones fail alike).
  for (let k = ends.length - 1; k >= Math.max(0, ends.length - 32); k--) {
    try {
      const value = JSON.parse(`${text.slice(start, ends[k])}}`) as unknown;
      if (isObject(value)) return value;
    } catch {
      // A shorter prefix next.
    }
  }
  return null;
}
