import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeChatNote } from '../../../src/core/conversation/codec';
import { conversationFromEngine } from '../../../src/core/conversation/reload';
import { replayWithEngine } from '../../../src/core/scenario/replay';
import { formatReportTable, inspectChatNote, type ChatNoteReport } from '../../../src/node/chatNoteTool';
import { budgetScenario, smallBudget, vault } from './budgetScenario';
import { ROOT, tickingClock } from './helpers';

/** `npm run chat-note` on a condensed chat: where each compaction stands, its kind, tokens before → after and cost. */
describe('the chat-note tool shows compactions', () => {
  let dir = '';
  let file = '';
  let events: Array<{ through: number; kind: string; trigger: string; tokensBefore: number; tokensAfter: number }> = [];

  beforeAll(async () => {
    const { turns, engine } = await replayWithEngine(budgetScenario(), vault(), { budget: smallBudget() });
    const all = turns.flatMap((t) => t.compactions ?? []);
    events = all.map(({ through, kind, trigger, tokensBefore, tokensAfter }) => ({ through, kind, trigger, tokensBefore, tokensAfter }));
    const c = conversationFromEngine(engine.snapshot(), { id: 'chat-tool', provider: 'openai', model: 'gpt-4o' }, tickingClock(), turns.map((t) => t.assembly), all);
    dir = mkdtempSync(path.join(os.tmpdir(), 'strata-chat-note-'));
    file = path.join(dir, 'condensed.md');
    writeFileSync(file, encodeChatNote(c), 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the report lists every compaction with its boundary (the message it stands before), tokens and cost', async () => {
    const report = await inspectChatNote(file);
    expect(report.warnings).toEqual([]);
    expect(report.compactions.map(({ through, kind, trigger, tokensBefore, tokensAfter }) => ({ through, kind, trigger, tokensBefore, tokensAfter }))).toEqual(events);
    // Every message is answered here: the summary of turns 1–n stands before message n + 1.
    expect(report.compactions.every((c) => c.before === c.through + 1)).toBe(true);
    expect(report.compactions.every((c) => c.cost === 0)).toBe(true);
    expect(report.compactions.some((c) => c.maskedThrough > c.through && c.outputsMasked > 0)).toBe(true);
  });

  test('the table marks each boundary between the messages and lists the compactions', async () => {
    const report = await inspectChatNote(file);
    const table = formatReportTable(report).split('\n');
    const first = report.compactions[0];
    const mark = `  ── Condensed: turns 1–${first.through} summarized ──`;
    const at = table.indexOf(mark);
    expect(at).toBeGreaterThan(0);
    expect(table[at + 1]).toMatch(new RegExp(`^ +${first.through + 1} complete`));
    expect(table).toContain(`  30 message(s), ${report.library.length} library item(s), ${report.compactions.length} compaction(s)`);
    const listed = table.slice(table.indexOf('  compactions: ') + 1, table.indexOf('  compactions: ') + 1 + report.compactions.length);
    expect(listed[0]).toBe(`    - Condensed: turns 1–${first.through} summarized (auto) · ${first.tokensBefore.toLocaleString('en-US')} → ${first.tokensAfter.toLocaleString('en-US')} tokens · $0.0000`);
    expect(listed.some((l) => l.includes('(manual)'))).toBe(true);
    const masked = report.compactions.findIndex((c) => c.maskedThrough > c.through);
    const m = report.compactions[masked];
    expect(listed[masked]).toContain(` · ${m.maskedThrough === m.through + 1 ? `turn ${m.maskedThrough}` : `turns ${m.through + 1}–${m.maskedThrough}`} masked (${m.outputsMasked} output(s))`);
  });

  test('npm run chat-note --format json carries them', () => {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'chat-note.ts'), file, '--format', 'json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const report = JSON.parse(out) as ChatNoteReport;
    expect(report.compactions.map((c) => c.through)).toEqual(events.map((e) => e.through));
  }, 60_000);
});
