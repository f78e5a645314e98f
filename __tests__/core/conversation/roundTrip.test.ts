import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { FsChatStore } from '../../../src/node/fsChatStore';
import { recordScenario, scenarioFiles, tickingClock } from './helpers';

const fallback = { id: 'unused', now: 0 };

describe('chat note round trip (every scenario)', () => {
  for (const file of scenarioFiles()) {
    const name = path.basename(file, '.json');

    test(`${name}: encode → decode → encode is byte-identical and loses nothing`, async () => {
      const { conversation } = await recordScenario(file);
      const text = encodeChatNote(conversation);
      const decoded = decodeChatNote(text, fallback);
      expect(decoded.warnings).toEqual([]);
      expect(decoded.conversation).toEqual(conversation);
      expect(encodeChatNote(decoded.conversation)).toBe(text);
    });

    test(`${name}: save → load → save through a store on disk is byte-identical`, async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-chats-'));
      try {
        const { conversation } = await recordScenario(file);
        const store = new FsChatStore(dir);
        const archive = new ChatArchive(store, tickingClock());
        const first = await archive.save(conversation);
        const saved = await store.read(first.path);
        const reopened = new ChatArchive(store, tickingClock());
        const loaded = await reopened.loadPath(first.path);
        expect(loaded.warnings).toEqual([]);
        const second = await reopened.save(loaded.conversation);
        expect(second.path).toBe(first.path);
        expect(second.edited).toEqual([]);
        expect(await store.read(first.path)).toBe(saved);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  test('the note never holds note contents: only URL page text and tool outputs are carried', async () => {
    const { conversation, engine } = await recordScenario(scenarioFiles().find((f) => f.endsWith('demo.json')) as string);
    const text = encodeChatNote(conversation);
    const library = engine.snapshot().library;
    const vaultItems = library.filter((i) => i.kind === 'note' || i.kind === 'selection');
    expect(vaultItems.length).toBeGreaterThan(3);
    for (const item of vaultItems) {
      // Every line of more than 40 characters of each note must be absent from the chat note.
      for (const line of item.content.split('\n').filter((l) => l.trim().length > 40)) {
        expect(text.includes(line)).toBe(false);
      }
    }
    const store = new MemoryChatStore();
    const { path: saved } = await new ChatArchive(store, tickingClock()).save(conversation);
    expect(saved.startsWith('Strata/Chats/')).toBe(true);
  });
});
