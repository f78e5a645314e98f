import { headingsOf } from '../agent/noteText';
import { ERROR_PREFIX } from '../agent/tool';
import type { ToolOutput } from '../engine/types';

/*
 * The offline (deterministic) short form of an earlier turn's tool output, made at a compaction
 * (toolArtifacts.ts): what the output was about and how to get it again, never what it said in
 * full. Same output, same digest: a reopened chat or a later compaction writes the same bytes.
 */

/** Most headings a readNote digest lists (a long outline is still cheaper than the note, but not free). */
const MAX_OUTLINE = 40;
/** Most characters of a fetched page's first paragraph. */
const MAX_PARAGRAPH = 600;

/** The first line of every digest: what it is and why, so the model never takes it for the whole output. */
function lead(tool: ToolOutput, turn: number, what: string, again: string): string {
  return `[${tool.name} output of turn ${turn}, kept as ${what} when the conversation was condensed. ${again}]`;
}

/** A readNote output (`path (lines a-b of N)` then the lines): its header and heading outline, and how to read it again. */
function readNoteDigest(tool: ToolOutput, turn: number): string | null {
  const newline = tool.output.indexOf('\n');
  if (newline < 0) return null;
  const header = tool.output.slice(0, newline);
  const match = /^(.*) \(lines \d+-\d+ of \d+\)$/.exec(header);
  if (!match) return null;
  const path = match[1];
  const outline = headingsOf(tool.output.slice(newline + 1)).map((h) => `${'#'.repeat(h.level)} ${h.text}`);
  const shown = outline.slice(0, MAX_OUTLINE);
  if (outline.length > MAX_OUTLINE) shown.push(`… ${outline.length - MAX_OUTLINE} more headings`);
  const again = `Call readNote with path "${path}" (and a heading) to read it again.`;
  return [lead(tool, turn, 'its heading outline', again), header, ...(shown.length > 0 ? shown : ['(no headings)'])].join('\n');
}

/** A localSearch output: its query line and numbered source list; the passages are left out. */
function searchDigest(tool: ToolOutput, turn: number): string | null {
  const lines = tool.output.split('\n');
  const query = lines[0]?.startsWith('Vault search for:') ? lines[0] : null;
  const sources = lines.filter((l) => /^\[\d+\] /.test(l));
  if (!query || sources.length === 0) return null;
  const again = 'Call readNote on a source (or localSearch again) for its text.';
  return [lead(tool, turn, 'its list of sources', again), query, 'Sources:', ...sources].join('\n');
}

/** A fetchUrl output (`# title`, `Source: url`, the page): its title, address and first paragraph. */
function pageDigest(tool: ToolOutput, turn: number): string | null {
  const lines = tool.output.split('\n');
  if (!lines[0]?.startsWith('# ') || !lines[1]?.startsWith('Source: ')) return null;
  const body = lines.slice(2).join('\n').trim();
  const first = body.split(/\n\s*\n/).find((p) => p.trim() !== '' && !p.trimStart().startsWith('#')) ?? '';
  const paragraph = first.length > MAX_PARAGRAPH ? `${first.slice(0, MAX_PARAGRAPH).trimEnd()} …` : first;
  const again = `Call fetchUrl with "${lines[1].slice('Source: '.length)}" to read it again.`;
  return [lead(tool, turn, 'its title, address and first paragraph', again), lines[0], lines[1], ...(paragraph ? ['', paragraph] : [])].join('\n');
}

const DIGESTS: Readonly<Record<string, (tool: ToolOutput, turn: number) => string | null>> = {
  readNote: readNoteDigest,
  localSearch: searchDigest,
  fetchUrl: pageDigest,
};

/**
 * The digest of a tool output, or null when the tool has none (its output is masked as before) or
 * the output is an error or does not read as that tool's (a hand-edited note).
 */
export function toolDigest(tool: ToolOutput, turn: number): string | null {
  if (tool.output.startsWith(ERROR_PREFIX)) return null;
  const digest = Object.prototype.hasOwnProperty.call(DIGESTS, tool.name) ? DIGESTS[tool.name](tool, turn) : null;
  return digest !== null && digest.length < tool.output.length ? digest : null;
}

/** The marker for an output left out because a later kept turn made the same call (its output is there). */
export function supersededText(tool: ToolOutput, turn: number, by: number): string {
  return `[${tool.name} output of turn ${turn} left out when the conversation was condensed: turn ${by} made the same call, and its output is kept.]`;
}
