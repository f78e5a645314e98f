/**
 * An encoded (fenced or JSON) message whose fence is intact in a damaged note is read back as the
 * message, not as its fence. The fuzz property "mutated: 2000 damaged notes" found it with seed
 * -238384394 (case 908): a structure line moved below the chat data callout, after the blank line
 * that ends the note, left that blank line and one of the two before the callout as text of the
 * last reply, after its closing fence; the decoder then took the block for an unclosed fence and
 * returned `\`\`\`strata-text\n%%  \n\`\`\`` (a plain reply gained a line break instead).
 */
import fc from 'fast-check';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { ChatTurn } from '../../../src/core/conversation/model';
import { decodeText, encodeText } from '../../../src/core/conversation/textBlock';
import { chatWith, conversation, messageText } from './arbitraries';

const fallback = { id: 'chat-fallback', now: 0 };

/** The note one turn with the reply `%%  ` encodes to (an odd `%%` opens an Obsidian comment: fenced). */
const NOTE = `---
title: Fence
created: 2023-11-14T22:13:20.000Z
updated: 2023-11-14T22:13:22.000Z
provider: openai
model: gpt-4o
mode: chat
strata:
  format: 3
  id: chat-fence
  titleSource: user
---

## User · 1

Hi

## Assistant · 1

\`\`\`strata-text
%%  
\`\`\`


> [!strata-data]- Chat data (Strata reads this to reopen the chat)
> \`\`\`json
> {"session":null,"lastRequest":null}
> {"turn":{"status":"complete","at":"2023-11-14T22:13:20.000Z","replyAt":"2023-11-14T22:13:21.000Z","textHash":"3639efcd08abb273","replyHash":"b8ef17de4e636228"}}
> \`\`\`
`;

/** The damage the fuzz test made, at its smallest: a structure line (here a failed callout) after the note's last blank line. */
const DAMAGED = `${NOTE}\n> [!strata-failed] Not answered`;

function turn(text: string, reply: string): ChatTurn {
  return { status: 'complete', text, at: 1_700_000_000_000, reply, replyAt: 1_700_000_001_000, dynamic: [], tools: [], referenced: [], problems: [] };
}

let chats = 0;
/** A one-turn chat's note (a new id each time: the encoder keeps its last note per chat id). */
function noteWith(reply: string, text = 'Hi'): string {
  return encodeChatNote(chatWith({ id: `chat-fence-${chats++}`, title: 'Fence', turns: [turn(text, reply)] }));
}

describe('a damaged note reads an intact fence as the message', () => {
  test('the fixture is what the encoder writes (the format did not change)', () => {
    const chat = chatWith({ id: 'chat-fence', title: 'Fence', turns: [turn('Hi', '%%  ')] });
    expect(encodeChatNote(chat)).toBe(NOTE);
    const decoded = decodeChatNote(NOTE, fallback);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation).toEqual(chat);
  });

  test('the fuzz case: a structure line below the chat data callout, after a blank line', () => {
    const decoded = decodeChatNote(DAMAGED, fallback);
    expect(decoded.conversation.turns.map((t) => t.reply)).toEqual(['%%  ']);
    expect(decoded.warnings).toEqual([]);
  });

  test('every encoding of the last reply, under the same damage and its kin', () => {
    const damages: [string, (note: string) => string][] = [
      ['a failed callout after a blank line', (n) => `${n}\n> [!strata-failed] Not answered`],
      ['two blank lines, then a callout', (n) => `${n}\n\n> [!strata-tool]- Tool: x`],
      ['a heading after a blank line', (n) => `${n}\n## User · 9\n\nmore`],
      ['a stray empty quote line', (n) => `${n}\n>`],
      ['empty quote lines and blank lines', (n) => `${n}\n> \n\n>\n`],
    ];
    // Plain, fenced (`%%`, a comment, an unclosed code fence, trailing blank lines), JSON (a CR, a lone surrogate).
    const replies = ['Answer.', 'a\n\nb\n', '%%  ', '<!-- x', '```js\ncode', '%%\n\n\n', '\\```strata-text', 'x\r', 'a\ud800b\n'];
    for (const reply of replies) {
      for (const [what, damage] of damages) {
        const decoded = decodeChatNote(damage(noteWith(reply)), fallback);
        expect([what, decoded.conversation.turns[0].reply]).toEqual([what, reply]);
        expect(decoded.warnings.filter((w) => w.includes('not closed') || w.includes('edited by hand'))).toEqual([]);
      }
    }
  });

  test('quoted text typed below the chat data callout is no message text: kept as the note\'s tail, written back as it was', () => {
    const note = `${noteWith('%%  ')}\n> a quote typed here\n>\n> and a second line\n`;
    const decoded = decodeChatNote(note, fallback);
    expect(decoded.conversation.turns[0].reply).toBe('%%  ');
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.tail).toBe('\n> a quote typed here\n>\n> and a second line\n');
    // Saved again, the note is byte for byte what the user left; read again, the same chat.
    expect(encodeChatNote(decoded.conversation)).toBe(note);
    expect(decodeChatNote(encodeChatNote(decoded.conversation), fallback).conversation).toEqual(decoded.conversation);
    // Before a callout moved below it, the stray quote is left out, and said.
    const before = decodeChatNote(`${noteWith('%%  ')}\n> a quote typed here\n\n> [!strata-tool]- Tool: x`, fallback);
    expect(before.conversation.tail).toBeUndefined();
    expect(before.warnings).toContain('text after the chat data callout was left out: "> a quote typed here"');
  });

  test('text typed below the chat data callout is still more of a fenced last reply, after its text', () => {
    const decoded = decodeChatNote(`${noteWith('%%  ')}A line I added.\n`, fallback);
    expect(decoded.conversation.turns[0].reply).toBe('%%  \n\nA line I added.');
    expect(decoded.warnings).toEqual(['message 1: the reply was edited by hand; the edited text is kept']);
  });

  test('blank lines added after a closing fence in the middle of the note', () => {
    const note = encodeChatNote(chatWith({ id: 'chat-fence-mid', title: 'Fence', turns: [turn('<!--', '%%'), turn('next', 'ok')] }));
    const damaged = note.replace('```\n\n## Assistant · 1', '```\n\n\n\n## Assistant · 1').replace('```\n\n## User · 2', '```\n  \n\n\n## User · 2');
    expect(damaged).not.toBe(note);
    const decoded = decodeChatNote(damaged, fallback);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.turns.map((t) => [t.text, t.reply])).toEqual([['<!--', '%%'], ['next', 'ok']]);
  });

  test('blank lines added before an opening fence: the fenced text when it is what the chat data hashed', () => {
    const chat = chatWith({ id: 'chat-fence-before', title: 'Fence', turns: [turn('<!--', '%%\n'), turn('next', 'ok')] });
    const note = encodeChatNote(chat);
    const damaged = note.replace('## User · 1\n\n```', '## User · 1\n\n\n```').replace('## Assistant · 1\n\n```', '## Assistant · 1\n\n \n\n```');
    expect(damaged).not.toBe(note);
    const decoded = decodeChatNote(damaged, fallback);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.turns.map((t) => [t.text, t.reply])).toEqual([['<!--', '%%\n'], ['next', 'ok']]);
    // Without the chat data there is no hash to tell: the text is kept as written (a plain text may start so).
    const bare = damaged.slice(0, damaged.indexOf('> [!strata-data]'));
    expect(decodeChatNote(bare, fallback).conversation.turns[0].text).toBe('\n```strata-text\n<!--\n```');
  });

  test('a plain text that starts with a blank line and a strata fence line reads as written', () => {
    const text = '\n```strata-text\nx\n```';
    const chat = chatWith({ id: 'chat-fence-plain', title: 'Fence', turns: [turn(text, text)] });
    const note = encodeChatNote(chat);
    expect(note).toContain(`## User · 1\n\n${text}\n\n## Assistant · 1`);
    const decoded = decodeChatNote(note, fallback);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation).toEqual(chat);
  });

  test('property: any text encoded, with blank lines (and spaces) after it, decodes to the text', () => {
    fc.assert(
      fc.property(messageText, fc.array(fc.constantFrom('', ' ', '\t', '  \r'), { minLength: 1, maxLength: 4 }), (text, blanks) => {
        const encoded = encodeText(text);
        if (!encoded.startsWith('```strata-')) return; // plain: its line breaks are the text's
        expect(decodeText(`${encoded}\n${blanks.join('\n')}`)).toEqual({ text, encoding: encoded.startsWith('```strata-json') ? 'json' : 'fenced' });
      }),
      { numRuns: 500 },
    );
  });

  test('property: blank lines put anywhere in the body but inside a fence, every fenced or JSON message reads back exactly', () => {
    fc.assert(
      fc.property(conversation, fc.array(fc.tuple(fc.nat(), fc.constantFrom('', ' ', '\t', '  ')), { minLength: 1, maxLength: 4 }), (c, inserts) => {
        const lines = encodeChatNote(c).split('\n');
        const bodyStart = lines.indexOf('---', 1) + 1;
        const dataAt = lines.findIndex((l) => l.startsWith('> [!strata-data]'));
        // Each encoded message: the lines of its fence, opening to closing.
        const fenced: { turn: number; role: 'user' | 'assistant'; open: number; close: number }[] = [];
        let n = -1;
        lines.forEach((line, i) => {
          const heading = /^## (User|Assistant) · (\d+)$/.exec(line);
          if (!heading) return;
          n = Number(heading[2]) - 1;
          const role = heading[1] === 'User' ? 'user' : 'assistant';
          const encoded = encodeText(role === 'user' ? c.turns[n].text : (c.turns[n].reply ?? ''));
          if (encoded.startsWith('```strata-')) fenced.push({ turn: n, role, open: i + 2, close: i + 1 + encoded.split('\n').length });
        });
        // Last first, so each index is the undamaged note's.
        const at = inserts.map(([k, blank]) => [bodyStart + (k % (dataAt - bodyStart)), blank] as const).sort((a, b) => b[0] - a[0]);
        for (const [i, blank] of at) lines.splice(i, 0, blank);
        const turns = decodeChatNote(lines.join('\n'), fallback).conversation.turns;
        for (const f of fenced) {
          if (at.some(([i]) => i > f.open && i <= f.close)) continue; // inside the fence: lines of the text
          const want = f.role === 'user' ? c.turns[f.turn].text : c.turns[f.turn].reply;
          expect([f.role, f.turn, f.role === 'user' ? turns[f.turn]?.text : turns[f.turn]?.reply]).toEqual([f.role, f.turn, want]);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('an unclosed fence is still kept as written, with its warning', () => {
    const block = '```strata-text\n%%  \n\n';
    expect(decodeText(block)).toEqual({ text: block, encoding: 'plain', warning: 'an encoded message (```strata-text) is not closed; its text is kept as written' });
  });

  test('linear: a 2 MB fenced reply with hostile backtick runs, damaged after its fence, decodes in one pass', () => {
    const MB = 1024 * 1024;
    const chunk = '%% ```` x\n`\n```x\n' + '`'.repeat(64) + 'y\n';
    const reply = chunk.repeat(Math.ceil((2 * MB) / chunk.length));
    const note = noteWith(reply);
    expect(note.length).toBeGreaterThan(2 * MB);
    const started = process.cpuUsage();
    const decoded = decodeChatNote(`${note}\n> [!strata-failed] Not answered`, fallback);
    const used = process.cpuUsage(started);
    const cpuMs = (used.user + used.system) / 1000;
    expect(decoded.conversation.turns[0].reply).toBe(reply);
    // A quadratic scan of 2 MB takes minutes; a pass, tens of milliseconds (generous for a loaded machine).
    expect(cpuMs).toBeLessThan(5000);
  });
});
