/**
 * Issue 10's fuzz, through the user-facing tool: 1,000 generated chat notes, written with CRLF, CR
 * or LF line endings, some with a BOM, with properties and an intro the user added by hand, are
 * re-saved by `npm run chat-note -- … --resave` (the plugin's own load and save path, in one real
 * process). Every note must keep its messages, its properties, its intro, its line endings and its
 * BOM, and read back to the same conversation.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { Conversation } from '../../../src/core/conversation/model';
import { conversation } from './arbitraries';

const CASES = 1000;
const ROOT = path.join(__dirname, '..', '..', '..');

type Eol = '\n' | '\r\n' | '\r';
interface Case {
  readonly c: Conversation;
  readonly eol: Eol;
  readonly bom: boolean;
  readonly tags: string[];
  readonly intro: string;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  c: conversation,
  eol: fc.constantFrom<Eol>('\n', '\r\n', '\r'),
  bom: fc.boolean(),
  tags: fc.array(fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/), { maxLength: 3 }),
  intro: fc.constantFrom('', 'Notes on this chat, written by hand.', 'See also [[Plan]].\nA second line.'),
});

/** What a user's editor leaves: properties on top, an intro before the first message, the file's own line endings. */
function handEdited(k: Case): string {
  let text = encodeChatNote(k.c);
  text = text.replace(/^---\n/, `---\ntags: [${k.tags.join(', ')}]\nreviewed: true\n`);
  if (k.intro && k.c.turns.length > 0) text = text.replace(/\n---\n\n/, `\n---\n\n${k.intro}\n\n`);
  if (k.eol !== '\n') text = text.replace(/\n/g, k.eol);
  return (k.bom ? '\ufeff' : '') + text;
}

function style(text: string): { eol: Eol; bom: boolean } {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  const eol: Eol = body.includes('\r\n') ? '\r\n' : body.includes('\r') ? '\r' : '\n';
  return { eol, bom: text.startsWith('\ufeff') };
}

/** The conversation as the user sees it: messages, replies, title, and what they added. */
function visible(c: Conversation) {
  return {
    title: c.title,
    turns: c.turns.map((t) => [t.status, t.text, t.reply ?? null]),
    extra: c.extra ?? {},
    preamble: (c.preamble ?? '').trim(),
  };
}

test(`${CASES} hand-edited chat notes (CRLF, CR, BOM, properties, intro) survive --resave through the chat-note tool`, () => {
  const cases = fc.sample(caseArb, { numRuns: CASES, seed: 20261123 });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-resave-'));
  try {
    const files = cases.map((k, i) => {
      const file = path.join(dir, `chat ${String(i).padStart(4, '0')}.md`);
      writeFileSync(file, handEdited(k), 'utf8');
      return file;
    });
    const before = files.map((f) => readFileSync(f, 'utf8'));
    const out = execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'chat-note.ts'), ...files, '--resave', '--format', 'json'], {
      cwd: ROOT,
      maxBuffer: 512 * 1024 * 1024,
      encoding: 'utf8',
    });
    const reports = JSON.parse(out) as Array<{ propertiesKept: string[]; resaved?: { changed: boolean } }>;
    expect(reports).toHaveLength(CASES);
    const failures: string[] = [];
    cases.forEach((k, i) => {
      const after = readFileSync(files[i], 'utf8');
      const expected = decodeChatNote(before[i], { id: 'x', now: 0 }).conversation;
      const got = decodeChatNote(after, { id: 'x', now: 0 }).conversation;
      const problems: string[] = [];
      if (JSON.stringify(style(after)) !== JSON.stringify({ eol: k.eol, bom: k.bom })) problems.push(`line endings or BOM changed: ${JSON.stringify(style(after))}`);
      if (JSON.stringify(visible(got)) !== JSON.stringify(visible(expected))) problems.push('what the user sees changed');
      if (got.turns.length !== k.c.turns.length) problems.push(`${got.turns.length} turns read back of ${k.c.turns.length}`);
      if (JSON.stringify(got.extra?.tags ?? null) !== JSON.stringify(k.tags) || got.extra?.reviewed !== true) problems.push('properties lost');
      if (k.intro && k.c.turns.length > 0 && !(got.preamble ?? '').includes(k.intro.replace(/\n/g, k.eol === '\n' ? '\n' : '\n'))) problems.push('intro lost');
      if (!reports[i].propertiesKept.includes('tags')) problems.push('the tool did not report the properties kept');
      if (problems.length > 0) failures.push(`case ${i} (${JSON.stringify(k.eol)}, bom ${k.bom}): ${problems.join('; ')}`);
    });
    expect(failures.slice(0, 10)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 300_000);
