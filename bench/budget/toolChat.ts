import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { renderNote } from '../../src/core/agent/tools/readNote';
import type { ToolOutput } from '../../src/core/engine/types';
import type { Scenario } from '../../src/core/scenario/scenario';
import { localSearchBlock } from '../../src/core/vaultQa/localSearchBlock';
import type { SearchHit } from '../../src/core/search/types';

/*
 * An agent-heavy long chat (issue 27, historical tool outputs as artifacts): every turn searches the
 * vault and reads a note, as an agent turn does, on a 16k model. The outputs are the real tools'
 * formats over real markdown notes (readNote's `path (lines a-b of N)` and the note, localSearch's
 * numbered sources and passages); every third turn reads again a note an earlier turn read.
 */

export interface VaultNote {
  readonly path: string;
  readonly text: string;
}

/** The markdown notes of a folder (vault-relative paths, sorted: the same chat on every machine). */
export function notesOf(root: string, minChars = 1_500): VaultNote[] {
  const out: VaultNote[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.md')) {
        const text = readFileSync(full, 'utf8');
        if (text.length >= minChars) out.push({ path: path.relative(root, full).split(path.sep).join('/'), text });
      }
    }
  };
  walk(root);
  return out;
}

/** A localSearch output over three notes: a passage (up to 30 lines) from each, as the tool renders it. */
export function searchOutput(query: string, notes: readonly VaultNote[]): ToolOutput {
  const hits: SearchHit[] = notes.map((n, i) => {
    const lines = n.text.split('\n');
    const start = Math.min(lines.length, 1 + 5 * i);
    const end = Math.min(lines.length, start + 29);
    const text = lines.slice(start - 1, end).join('\n');
    return { path: n.path, headings: [], heading: '', startLine: start, endLine: end, text, snippet: text.slice(0, 80), score: 1 - i / 10 };
  });
  const block = localSearchBlock(query, hits).tool;
  return { name: 'localSearch', input: JSON.stringify({ query }), output: block.output };
}

export function readOutput(note: VaultNote): ToolOutput {
  return { name: 'readNote', input: JSON.stringify({ path: note.path }), output: renderNote(note.path, note.text) };
}

/** The note turn `n` (1-based) reads: a new one, or on every third turn again the one turn n-2 read. */
export function noteForTurn(n: number, notes: readonly VaultNote[]): VaultNote {
  if (n % 3 === 0) return noteForTurn(n - 2, notes);
  return notes[(n - 1 - Math.floor(n / 3)) % notes.length];
}

/** The chat as a scenario: `turns` turns, each a search and a read (tools as the turn's outputs), a short reply. */
export function toolChatScenario(notes: readonly VaultNote[], turns: number, model = 'gpt-3.5-turbo'): Scenario {
  if (notes.length < 3) throw new Error('the tool chat needs at least three notes');
  return {
    name: 'tool-chat',
    model,
    turns: Array.from({ length: turns }, (_, i) => {
      const n = i + 1;
      const note = noteForTurn(n, notes);
      const title = path.basename(note.path, '.md');
      const around = [note, notes[(n + 3) % notes.length], notes[(n + 7) % notes.length]];
      return {
        user: `Turn ${n}: look up ${title} in my vault and tell me the one thing I should do next about it.`,
        context: [],
        edits: [],
        tools: [searchOutput(title, around), readOutput(note)],
        reply: `From ${note.path}: the next step is in its first section; I read the note and the two search results around it.`,
        remove: [],
      };
    }),
  };
}
