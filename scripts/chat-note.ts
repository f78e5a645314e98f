/**
 * Read chat notes as the plugin does and say what it finds (why a chat does not open, what a save keeps,
 * where the chat was condensed: each compaction's boundary, kind, tokens before → after and cost).
 * Usage: npm run --silent chat-note -- <note.md> [more.md …] [--format json|table] [--resave]
 * --format json prints one JSON object per note (a JSON array when several); --resave writes each note
 * back through the plugin's own save path.
 */
import { formatReportTable, inspectChatNote, type ChatNoteReport } from '../src/node/chatNoteTool';
import { parseArgs } from './args';

const USAGE = 'usage: chat-note <note.md> [more.md …] [--format json|table] [--resave]';

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv, ['format'], ['resave']);
  if (args.positional.length === 0) throw new UsageError(USAGE);
  const format = args.options.format ?? 'table';
  if (format !== 'json' && format !== 'table') throw new UsageError(`--format must be json or table\n${USAGE}`);
  const reports: ChatNoteReport[] = [];
  let failed = 0;
  for (const file of args.positional) {
    try {
      const report = await inspectChatNote(file, { resave: args.flags.has('resave') });
      reports.push(report);
      if (format === 'table') process.stdout.write(formatReportTable(report));
    } catch (error) {
      failed++;
      process.stderr.write(`chat-note: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  if (format === 'json') process.stdout.write(`${JSON.stringify(args.positional.length === 1 ? (reports[0] ?? null) : reports, null, 2)}\n`);
  if (failed > 0) process.exitCode = 1;
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`chat-note: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
