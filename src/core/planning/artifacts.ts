import type { ContextItem } from '../context/items';
import type { TokenCounter } from '../tokens/tokenCounter';
import { sha256Hex } from '../hash';
import type { ToolOutput } from '../engine/types';
import type { Artifact, ArtifactPreview } from './types';

/** Preview sizes in characters: enough for the planner to tell what a text is about, cheap on 200 artifacts. */
export const PREVIEW_HEAD_CHARS = 600;
export const PREVIEW_TAIL_CHARS = 300;
export const PREVIEW_MAX_HEADINGS = 30;

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Whole lines from the start up to about `max` characters (at least the first line, cut if it is longer). */
function headLines(lines: readonly string[], max: number): { text: string; used: number } {
  let text = '';
  let used = 0;
  for (const line of lines) {
    const next = used === 0 ? line : `${text}\n${line}`;
    if (next.length > max) {
      if (used === 0) return { text: `${line.slice(0, max)}…`, used: 1 };
      break;
    }
    text = next;
    used += 1;
  }
  return { text, used };
}

/** Head, headings outline and tail of a text (the tail only when the head does not reach the end). */
export function previewOf(content: string, headChars = PREVIEW_HEAD_CHARS, tailChars = PREVIEW_TAIL_CHARS): ArtifactPreview {
  const lines = content.split(/\r?\n/);
  const head = headLines(lines, headChars);
  const outline: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const f = FENCE.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = HEADING.exec(line);
    if (h && outline.length < PREVIEW_MAX_HEADINGS) outline.push(`${'#'.repeat(h[1].length)} ${h[2]}`);
  }
  const rest = lines.slice(head.used);
  const tail = rest.length === 0 ? '' : headLines([...rest].reverse(), tailChars).text.split('\n').reverse().join('\n');
  return { head: head.text, outline, tail };
}

/** A context item (attached this turn, or from the library) as an artifact; tokens as its block counts on the chat's model. */
export function itemArtifact(item: ContextItem, tokens: number, historical: boolean): Artifact {
  return {
    id: item.id,
    type: item.kind,
    title: item.title,
    source: item.source,
    chars: item.content.length,
    tokens,
    hash: item.hash,
    historical,
    preview: previewOf(item.content),
    content: item.content,
  };
}

/** The id of a tool output: its turn and position (tool outputs have no path). */
export function toolArtifactId(turn: number, index: number): string {
  return `tool:${turn}:${index + 1}`;
}

/** A tool output (Vault QA's search block, an agent tool's result) as an artifact. */
export function toolArtifact(tool: ToolOutput, turn: number, index: number, counter: TokenCounter, historical: boolean): Artifact {
  return {
    id: toolArtifactId(turn, index),
    type: 'tool',
    title: `${tool.name}(${tool.input.length > 60 ? `${tool.input.slice(0, 59)}…` : tool.input})`,
    source: `turn ${turn}: ${tool.name}`,
    chars: tool.output.length,
    tokens: counter.count(tool.output),
    hash: sha256Hex(tool.output),
    historical,
    preview: previewOf(tool.output),
    content: tool.output,
  };
}
