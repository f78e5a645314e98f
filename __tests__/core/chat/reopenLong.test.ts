/**
 * Issue 30: reopening a long chat is made cheaper (hashes found by content, lighter decoding), and
 * the reopened chat's next request must still be the unbroken chat's, byte for byte, with every
 * turn and every library note in it. A 300-turn chat over 200 generated notes on disk (one attached
 * per turn, every third turn attaching an earlier one again, as the bench's whole-turn chat does;
 * condensed on the way, as it outgrows the window) is saved; the unbroken controller sends turn 301,
 * and a fresh controller over a fresh archive reopens the saved note and sends the same turn.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContextChip } from '../../../src/core/context/items';
import type { ChatRequest } from '../../../src/core/ports/chatModel';
import { FsVault } from '../../../src/node/fsVault';
import { makeController, memoryProviders, NoteFiles, settingsFor } from './controllerHarness';

const TURNS = 300;
const NOTES = 200;
const AREAS = ['Projects/Greenhouse', 'Reading', 'Daily', 'Garden', 'Work/Plans'];
const WORDS = 'the plan week soil seed water light vent heat frost spring note idea task budget meeting review draft scale tempo bread oven trip walk goal risk'.split(' ');

function noteText(i: number): string {
  let x = (i * 2654435761 + 12345) >>> 0;
  const words = (n: number) =>
    Array.from({ length: n }, () => {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      return WORDS[x % WORDS.length];
    }).join(' ');
  return `# Note ${i}\n\n## Context\n\n${words(60)}.\n\n## Next\n\n- [ ] ${words(8)}\n`;
}

const notePath = (i: number) => `${AREAS[i % AREAS.length]}/Note ${String(i).padStart(3, '0')}.md`;

/** What goes over the wire: the request without its callbacks and signal. */
const wire = (request: ChatRequest | undefined) => JSON.stringify({ ...request, signal: undefined, onToken: undefined, onRetry: undefined });

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-reopen-long-'));
  for (let i = 0; i < NOTES; i++) {
    const full = path.join(dir, ...notePath(i).split('/'));
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, noteText(i));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test(`a ${TURNS}-turn chat reopened on a fresh controller sends the unbroken chat's next request, byte for byte`, async () => {
  const settings = settingsFor('http://127.0.0.1:9');
  const vault = new FsVault(dir);
  const { providers, model } = memoryProviders();
  const files = new NoteFiles();
  const { controller } = makeController(settings, { providers, files, ids: ['chat-long'], vault });
  const attached: number[] = [];
  let fresh = 0;
  const chipsFor = (t: number): ContextChip[] => {
    const index = t % 3 === 0 && attached.length > 0 ? attached[(t * 7) % attached.length] : fresh++ % NOTES;
    if (!attached.includes(index)) attached.push(index);
    return [{ kind: 'note', path: notePath(index) }];
  };
  const textFor = (t: number) => `Question ${t}: what does the note say about the plan, and what should I do next?`;
  for (let t = 1; t <= TURNS; t++) await controller.send(textFor(t), chipsFor(t));
  await controller.flush();
  expect(controller.state.answered).toHaveLength(TURNS);

  // The note as saved after turn 300, for the reopened chat.
  const saved = new NoteFiles();
  for (const [p, text] of files.files) saved.files.set(p, text);

  // The chat outgrows the model's window: it was condensed on the way (compaction records and summaries reopen too).
  expect(controller.state.conversation.compactions?.length ?? 0).toBeGreaterThan(0);
  const next = chipsFor(TURNS + 1);
  let before = model.requests.length;
  await controller.send(textFor(TURNS + 1), next);
  expect(model.requests).toHaveLength(before + 1);
  const unbroken = model.requests[model.requests.length - 1];

  const reopened = makeController(settings, { providers, files: saved, ids: ['x'], vault }).controller;
  await reopened.open('chat-long');
  expect(reopened.state.warnings).toEqual([]);
  expect(reopened.state.answered).toHaveLength(TURNS);
  before = model.requests.length;
  await reopened.send(textFor(TURNS + 1), next);
  expect(model.requests).toHaveLength(before + 1);
  const after = model.requests[model.requests.length - 1];

  expect(wire(after)).toBe(wire(unbroken));
  // Complete: the turns kept since the last condensing, its summary, and every library note are in it.
  const sent = after.messages.map((m) => m.content).join('\n');
  const through = controller.state.conversation.compactions?.at(-1)?.through ?? 0;
  for (let t = through + 1; t <= TURNS + 1; t++) expect(sent).toContain(textFor(t));
  for (const i of attached) expect(sent).toContain(noteText(i).split('\n')[4]);
  expect(reopened.state.answered[TURNS].envelope?.prefixChange).toBeNull();
}, 240_000);
