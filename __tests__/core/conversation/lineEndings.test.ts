import fc from 'fast-check';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import { splitFrontmatter } from '../../../src/core/markdown/frontmatter';
import type { Conversation, NoteFormat } from '../../../src/core/conversation/model';
import { FsChatStore } from '../../../src/node/fsChatStore';
import { chatWith, conversation } from './arbitraries';
import { tickingClock } from './helpers';

const fallback = { id: 'chat-fallback', now: 0 };
/** What a file on disk keeps: UTF-8 bytes (lone surrogates would not survive unescaped). */
const throughDisk = (text: string) => Buffer.from(text, 'utf8').toString('utf8');
/** A note as an editor or git (autocrlf) would leave it: other line breaks, maybe a BOM. */
const written = (lf: string, format: NoteFormat) => `${format.bom ? '\ufeff' : ''}${lf.replace(/\n/g, format.eol)}`;

const FORMATS: NoteFormat[] = [
  { eol: '\r\n', bom: false },
  { eol: '\r', bom: false },
  { eol: '\n', bom: true },
  { eol: '\r\n', bom: true },
  { eol: '\r', bom: true },
];
const RUNS = 1000;

function withoutFormat(c: Conversation): Conversation {
  const { format: _format, ...rest } = c;
  return rest;
}

describe('chat notes with CRLF or CR line endings, or a BOM', () => {
  test(`${RUNS} random chats written with CRLF / CR / BOM read as with LF and re-encode byte-identically`, () => {
    fc.assert(
      fc.property(conversation, (c) => {
        const lf = throughDisk(encodeChatNote(c));
        const expected = decodeChatNote(lf, fallback).conversation;
        for (const format of FORMATS) {
          const note = written(lf, format);
          const decoded = decodeChatNote(throughDisk(note), fallback);
          expect(decoded.warnings).toEqual([]);
          expect(decoded.format).toEqual(format);
          expect(withoutFormat(decoded.conversation)).toEqual(expected);
          expect(encodeChatNote(decoded.conversation)).toBe(note);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('an LF note without a BOM decodes with no format field (nothing changes for existing notes)', () => {
    fc.assert(
      fc.property(conversation, (c) => {
        const decoded = decodeChatNote(encodeChatNote(c), fallback);
        expect(decoded.format).toEqual({ eol: '\n', bom: false });
        expect(decoded.conversation.format).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  test('the frontmatter is found after a BOM and with CR-only line breaks', () => {
    expect(splitFrontmatter('\ufeff---\r\ntitle: x\r\n---\r\nbody')).toEqual({ yaml: 'title: x\r\n', body: 'body' });
    expect(splitFrontmatter('---\rtitle: x\r---\rbody')).toEqual({ yaml: 'title: x\r', body: 'body' });
  });

  test('a mixed note (CRLF lines typed into an LF note) still reads every message', () => {
    const lf = encodeChatNote(sample());
    const mixed = lf.replace('## Assistant · 1\n', '## Assistant · 1\r\n');
    const decoded = decodeChatNote(mixed, fallback);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.turns.map((t) => t.reply)).toEqual(['Yes.\nIt does.', 'Done.']);
  });

  describe('through the archive on disk', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'strata-eol-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    test.each(FORMATS)('a %o note opens with its id and history, and the next save keeps both and its line endings', async (format) => {
      const archive = new ChatArchive(new FsChatStore(dir), tickingClock());
      const { path: notePath } = await archive.save(sample());
      const file = path.join(dir, ...notePath.split('/'));
      writeFileSync(file, written(readFileSync(file, 'utf8'), format));

      const fresh = new ChatArchive(new FsChatStore(dir), tickingClock());
      const listed = await fresh.list();
      expect(listed.map((s) => [s.id, s.turns, s.warnings])).toEqual([['chat-eol', 2, 0]]);
      const loaded = await fresh.loadPath(notePath);
      expect(loaded.warnings).toEqual([]);
      expect(loaded.conversation.id).toBe('chat-eol');
      expect(loaded.conversation.turns).toHaveLength(2);

      expect(loaded.conversation.format).toEqual(format.eol === '\n' && !format.bom ? undefined : format);
      const next = { ...loaded.conversation, turns: [...loaded.conversation.turns, { ...loaded.conversation.turns[1], text: 'Third?' }] };
      await fresh.save(next);
      const saved = readFileSync(file, 'utf8');
      expect(saved).toBe(written(encodeChatNote(withoutFormat(next)), format));
      expect(decodeChatNote(saved, fallback).conversation.turns.map((t) => t.text)).toEqual(['Does it work?', 'And now?', 'Third?']);

      // A conversation without a format (built elsewhere, or an older one) is saved in the note's own.
      const fourth = { ...withoutFormat(next), turns: [...next.turns, { ...next.turns[1], text: 'Fourth?' }] };
      await fresh.save(fourth);
      expect(readFileSync(file, 'utf8')).toBe(written(encodeChatNote(fourth), format));
      await fresh.rename('chat-eol', 'Renamed');
      // Issue 29: the note is renamed after its new title (it kept its name before); its line endings stay.
      const renamed = path.join(path.dirname(file), `${path.basename(file).slice(0, 10)} Renamed.md`);
      expect(existsSync(file)).toBe(false);
      expect(readFileSync(renamed, 'utf8')).toBe(written(encodeChatNote({ ...fourth, title: 'Renamed', titleSource: 'user' }), format));
    });
  });
});

function sample(): Conversation {
  const turn = { status: 'complete' as const, at: 1_700_000_000_000, replyAt: 1_700_000_001_000, dynamic: [], tools: [], referenced: [], problems: [] };
  return chatWith({
    id: 'chat-eol',
    title: 'Line endings',
    turns: [
      { ...turn, text: 'Does it work?', reply: 'Yes.\nIt does.' },
      { ...turn, text: 'And now?', reply: 'Done.' },
    ],
  });
}
