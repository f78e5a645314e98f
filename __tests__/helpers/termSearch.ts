import fs from 'node:fs';
import path from 'node:path';
import type { SearchHit, SearchOptions, VaultSearch } from '../../src/core/search/types';

/**
 * A small deterministic VaultSearch FOR TESTS ONLY, standing in for the real index (built on another
 * branch) until it is merged: each markdown note is split at its ATX headings, and a chunk scores
 * the number of distinct query words (3+ letters, a few stop words left out) it contains. No
 * stemming, no ranking model, no index: it reads the files at every search. Tests that only need
 * "some relevant chunks, always the same ones" use it; the merging engineer swaps it for the real search.
 */
export class TermOverlapSearch implements VaultSearch {
  constructor(private readonly root: string) {}

  search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const words = new Set(terms(query));
    const hits: SearchHit[] = [];
    for (const file of markdownFiles(this.root)) {
      const rel = path.relative(this.root, file).split(path.sep).join('/');
      for (const chunk of chunks(fs.readFileSync(file, 'utf8'))) {
        const have = new Set(terms(chunk.text));
        const score = [...words].filter((w) => have.has(w)).length;
        if (score === 0) continue;
        hits.push({ path: rel, ...chunk, snippet: chunk.text.slice(0, 80), score });
      }
    }
    hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine);
    const perNote = options.perNote ?? Infinity;
    const counts = new Map<string, number>();
    const out = hits.filter((h) => {
      const n = counts.get(h.path) ?? 0;
      counts.set(h.path, n + 1);
      return n < perNote;
    });
    return Promise.resolve(out.slice(0, options.k ?? 10));
  }
}

const STOP = new Set(['the', 'and', 'for', 'are', 'was', 'what', 'how', 'does', 'with', 'that', 'this', 'from', 'about', 'which', 'when', 'why', 'our', 'you', 'your']);

function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w));
}

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(full));
    else if (entry.name.endsWith('.md')) out.push(full);
  }
  return out;
}

function chunks(text: string): Array<Pick<SearchHit, 'headings' | 'heading' | 'startLine' | 'endLine' | 'text'>> {
  const lines = text.split('\n');
  const out: Array<Pick<SearchHit, 'headings' | 'heading' | 'startLine' | 'endLine' | 'text'>> = [];
  let stack: Array<{ level: number; title: string }> = [];
  let start = 0;
  const flush = (end: number) => {
    const body = lines.slice(start, end).join('\n');
    if (body.trim()) out.push({ headings: stack.map((h) => h.title), heading: stack[stack.length - 1]?.title ?? '', startLine: start + 1, endLine: end, text: body });
  };
  lines.forEach((line, i) => {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) return;
    flush(i);
    start = i;
    stack = [...stack.filter((h) => h.level < m[1].length), { level: m[1].length, title: m[2] }];
  });
  flush(lines.length);
  return out;
}
