import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Markdown notes under `root` in name order, at most `limit`: their texts. */
export function notesUnder(root: string, limit: number): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= limit) return;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) out.push(readFileSync(full, 'utf8'));
    }
  };
  walk(root);
  return out;
}
