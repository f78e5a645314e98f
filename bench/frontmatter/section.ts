import { int } from '../report/format';
import { measureNoteSizes, type NoteSize } from './chat';

/**
 * The chat note's frontmatter as Obsidian's Properties view shows it, at 10 / 50 / 200 (and 1,000)
 * turns of a realistic chat (bench/frontmatter/chat.ts). Format 1 kept every turn's record there
 * (measured before format 2: 42 / 114 / 384 / 1,824 lines, 13.8 KB / 63 KB / 252 KB / 1.36 MB).
 */
export function measureFrontmatter(counts: readonly number[]): Promise<NoteSize[]> {
  return measureNoteSizes(counts);
}

export function frontmatterSection(rows: readonly NoteSize[]): string {
  const kb = (n: number) => (n < 10_240 ? `${(n / 1024).toFixed(1)} KiB` : `${int(n / 1024)} KiB`);
  return [
    '## Chat note frontmatter',
    '',
    'A chat of N answered turns built through the engine and the chat transitions (one note attached per turn, every third turn re-attaching ' +
      'an earlier one, a selection or a folder now and then, a compaction at 60 % of the turns, usage and cost on every reply), encoded as the plugin saves it. ' +
      'The frontmatter is what Obsidian\'s Properties view shows; the chat data is the folded callout under it that holds the machine state. ' +
      'Before format 2 (all of it in the frontmatter): 42 / 114 / 384 / 1,824 lines and 13.8 KB / 63 KB / 252 KB / 1.36 MB at 10 / 50 / 200 / 1,000 turns. Target: under 150 KB at 1,000 turns.',
    '',
    '| turns | frontmatter lines | frontmatter | chat data | note |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${int(r.turns)} | ${r.frontmatterLines} | ${int(r.frontmatterBytes)} B | ${kb(r.chatDataBytes)} | ${kb(r.noteBytes)} |`),
    '',
  ].join('\n');
}
