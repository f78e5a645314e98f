/**
 * How big a chat note's frontmatter gets: builds chats of 10 / 50 / 200 / 1000 turns (attachments,
 * re-attachments, a compaction, usage and cost) through the engine and the chat transitions, encodes
 * each as the plugin saves it, and prints frontmatter lines and bytes and the note's bytes.
 * Usage: npx tsx scripts/frontmatter-size.ts [10,50,200,1000] [--write-note <dir>]   (`npm run bench -- --only frontmatter` reports the same)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeChatNote } from '../src/core/conversation/codec';
import { benchChat, noteSize } from '../bench/frontmatter/chat';
import { parseArgs } from './args';

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv, ['write-note'], []);
  const counts = (args.positional[0] ?? '10,50,200,1000').split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('turn counts: a comma-separated list of positive integers');
  const dir = args.options['write-note'];
  process.stdout.write('| turns | frontmatter lines | frontmatter bytes | chat data bytes | note bytes |\n| ---: | ---: | ---: | ---: | ---: |\n');
  for (const turns of counts) {
    const note = encodeChatNote(await benchChat(turns));
    const size = noteSize(turns, note);
    process.stdout.write(`| ${turns} | ${size.frontmatterLines} | ${size.frontmatterBytes} | ${size.chatDataBytes} | ${size.noteBytes} |\n`);
    if (dir) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `chat-${turns}.md`), note);
    }
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`frontmatter-size: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
