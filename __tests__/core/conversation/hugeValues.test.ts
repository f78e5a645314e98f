/**
 * Issue 26, finding 2: a huge value in a chat note's chat data or properties. On main a 1 MB `id` on
 * the chat data's first line loaded without a warning (the next send took 28 s, every save rewrote
 * it). Every value read from the note has a size limit (src/core/storedLimits.ts): here any one
 * string or list of the chat data, or a property the plugin reads, is made huge; the note must read
 * with a warning, without the huge value, with every message and every other chat data line as it was.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { inspectChatNote } from '../../../src/node/chatNoteTool';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { Conversation } from '../../../src/core/conversation/model';
import { STORED_LIMITS } from '../../../src/core/storedLimits';
import { richConversation } from './richChat';

const fallback = { id: 'chat-fallback', now: 0 };
/** Over every limit: a little more than the largest (a library item's content). */
const HUGE = STORED_LIMITS.content + 1;

type JsonPath = ReadonlyArray<string | number>;

/** Paths to every string and every list inside a JSON value. */
function leaves(value: unknown, at: JsonPath = []): JsonPath[] {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => leaves(v, [...at, i]))];
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => leaves(v, [...at, k]));
  return [];
}

function setAt(value: unknown, path: JsonPath, huge: unknown): unknown {
  if (path.length === 0) return huge;
  const [key, ...rest] = path;
  if (Array.isArray(value)) return (value as unknown[]).map((v, i) => (i === key ? setAt(v, rest, huge) : v));
  const record = value as Record<string, unknown>;
  return { ...record, [key]: setAt(record[key], rest, huge) };
}

/** The chat data callout's JSON lines, by their index in the note's lines. */
function dataLines(lines: readonly string[]): number[] {
  const start = lines.findIndex((l) => l.startsWith('> [!strata-data]'));
  const out: number[] = [];
  for (let i = start + 1; i < lines.length && lines[i].startsWith('>'); i++) if (lines[i].startsWith('> {')) out.push(i);
  return out;
}

/** Keys whose value is one of a fixed set of words. */
const ENUM_KEYS = new Set(['status', 'kind', 'reason', 'mode', 'strategy', 'type', 'trigger', 'by', 'override', 'rendering', 'stop', 'titleSource', 'planner']);

const messages = (c: Conversation) => c.turns.map((t) => [t.status, t.text, t.reply ?? null]);

interface Case {
  readonly c: Conversation;
  readonly line: number;
  readonly leaf: number;
  readonly unit: string;
  readonly asList: boolean;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  c: richConversation,
  line: fc.nat(),
  leaf: fc.nat(),
  unit: fc.constantFrom('x', ' ', '漢', '😀', '\\n', '"'),
  asList: fc.boolean(),
});

describe('huge values in a chat note are cut off with a warning, nothing else is lost', () => {
  test('a 1 MB id on the chat data line reads with a warning and a new id', () => {
    const c = fc.sample(richConversation, { numRuns: 1, seed: 26 })[0];
    const note = encodeChatNote(c);
    // The chat data's head line (format 3: at the end of the note, after the tool callouts' JSON).
    const huge = note.replace(/^(> \[!strata-data\].*\n> ```json\n)> \{/m, `$1> {"id":"${'x'.repeat(1_048_576)}",`);
    expect(huge.length).toBeGreaterThan(note.length + 1_000_000);
    const decoded = decodeChatNote(huge, fallback);
    expect(decoded.warnings.some((w) => w.includes('id') && w.includes('at most'))).toBe(true);
    expect(decoded.conversation.id.length).toBeLessThan(100);
    expect(messages(decoded.conversation)).toEqual(messages(c));
    expect(encodeChatNote(decoded.conversation).length).toBeLessThan(note.length + 1_000);
  });

  test.each([
    ['title', 'title'],
    ['provider', 'provider'],
    ['model', 'model'],
    ['mode', 'mode'],
    ['created', 'created'],
  ])('a huge %s property reads with a warning', (_name, key) => {
    const c = fc.sample(richConversation, { numRuns: 1, seed: 27 })[0];
    const note = encodeChatNote(c).replace(new RegExp(`^${key}: .*$`, 'm'), `${key}: ${'y'.repeat(HUGE)}`);
    expect(note.length).toBeGreaterThan(HUGE);
    const decoded = decodeChatNote(note, fallback);
    expect(decoded.warnings.some((w) => w.startsWith(key))).toBe(true);
    expect(messages(decoded.conversation)).toEqual(messages(c));
    expect(JSON.stringify(decoded.conversation).length).toBeLessThan(note.length - HUGE + 10_000);
  });

  test('the save path (chat-note --resave, on disk): 25 notes, each with one huge value and the user\'s own properties, are written back without it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-huge-'));
    try {
      const cases = fc.sample(caseArb, { numRuns: 60, seed: 20261128 });
      let written = 0;
      for (const [n, k] of cases.entries()) {
        if (written >= 25) break;
        const note = encodeChatNote(k.c).replace(/^---\n/, '---\ntags: [kept]\n');
        const lines = note.split('\n');
        const data = dataLines(lines);
        const at = data[k.line % data.length];
        const value = JSON.parse(lines[at].slice(2)) as unknown;
        const paths = leaves(value).filter((p) => p.length > 1 && !ENUM_KEYS.has(String(p[p.length - 1])));
        if (paths.length === 0) continue;
        const leaf = paths[k.leaf % paths.length];
        lines[at] = `> ${JSON.stringify(setAt(value, leaf, k.unit.repeat(Math.ceil(HUGE / k.unit.length))))}`;
        const file = path.join(dir, `chat ${n}.md`);
        writeFileSync(file, lines.join('\n'), 'utf8');
        const report = await inspectChatNote(file, { resave: true });
        const where = `${JSON.stringify(leaf)}`;
        expect({ where, warned: report.warnings.length > 0, changed: report.resaved?.changed }).toEqual({ where, warned: true, changed: true });
        expect(statSync(file).size).toBeLessThan(Buffer.byteLength(note) + 10_000);
        const after = decodeChatNote(readFileSync(file, 'utf8'), fallback);
        expect(messages(after.conversation)).toEqual(messages(k.c));
        expect(after.conversation.extra?.tags).toEqual(['kept']);
        written++;
      }
      expect(written).toBe(25);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('fuzz: any one string or list of any chat data line made huge', () => {
    let checked = 0;
    fc.assert(
      fc.property(caseArb, (k) => {
        const note = encodeChatNote(k.c);
        const lines = note.split('\n');
        const data = dataLines(lines);
        const at = data[k.line % data.length];
        const value = JSON.parse(lines[at].slice(2)) as unknown;
        const paths = leaves(value).filter((p) => p.length > 1 || (p.length === 1 && typeof p[0] === 'string'));
        // The one-line-per-entry lists are not values of a record: a line holds one of their entries.
        if (paths.length === 0) return;
        const path = paths[k.leaf % paths.length];
        // A word of a fixed set (a status, a kind) made huge is a wrong word, read as such (fuzz.test.ts): sizes are tried on the rest.
        if (ENUM_KEYS.has(String(path[path.length - 1]))) return;
        const huge = k.asList ? Array.from({ length: STORED_LIMITS.list + 1 }, () => k.unit) : k.unit.repeat(Math.ceil(HUGE / k.unit.length));
        lines[at] = `> ${JSON.stringify(setAt(value, path, huge))}`;
        const damaged = lines.join('\n');
        const decoded = decodeChatNote(damaged, fallback);
        const where = `line ${at}, ${JSON.stringify(path)}`;
        expect({ where, warned: decoded.warnings.length > 0 }).toEqual({ where, warned: true });
        expect(messages(decoded.conversation)).toEqual(messages(k.c));
        const again = encodeChatNote(decoded.conversation);
        // The huge value is gone from what is kept and saved.
        expect(again.length).toBeLessThan(note.length + 10_000);
        // Every other chat data line is written back as it was.
        const before = new Set(again.split('\n'));
        const lost = data.filter((i) => i !== at && !before.has(lines[i]));
        expect({ where, lost: lost.map((i) => lines[i].slice(0, 80)) }).toEqual({ where, lost: [] });
        checked++;
      }),
      { numRuns: 150, seed: 20261127 },
    );
    expect(checked).toBeGreaterThan(100);
  });
});
