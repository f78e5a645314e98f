import { mkdtempSync, rmSync, utimesSync, writeFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsChatStore } from '../../src/node/fsChatStore';

/**
 * FsChatStore keeps a note's text after it reads or writes it, served while the file's stat is
 * unchanged. Whatever changes the file behind its back must be read, never the kept text.
 */
describe('FsChatStore keeps what it wrote, and sees what others wrote', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'strata-fsstore-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads an edit of another size, and one of the same size with a new modification time', async () => {
    const store = new FsChatStore(dir);
    await store.create('Chats/a.md', 'first text');
    expect(await store.read('Chats/a.md')).toBe('first text');
    await store.process('Chats/a.md', (current) => `${current} + é·…`);
    expect(await store.read('Chats/a.md')).toBe('first text + é·…');

    const full = path.join(dir, 'Chats', 'a.md');
    writeFileSync(full, 'edited by hand, longer than before');
    expect(await store.read('Chats/a.md')).toBe('edited by hand, longer than before');

    const before = statSync(full).mtime;
    writeFileSync(full, 'EDITED BY HAND, LONGER THAN BEFORE'); // same size
    utimesSync(full, before, new Date(before.getTime() + 5000));
    expect(await store.read('Chats/a.md')).toBe('EDITED BY HAND, LONGER THAN BEFORE');
    // process() hands the edit to its update, not the text it wrote last.
    await store.process('Chats/a.md', (current) => {
      expect(current).toBe('EDITED BY HAND, LONGER THAN BEFORE');
      return `${current}!`;
    });
  });

  it('forgets a trashed or missing note', async () => {
    const store = new FsChatStore(dir);
    await store.create('b.md', 'text');
    await store.trash('b.md');
    expect(await store.read('b.md')).toBeNull();
    await store.create('b.md', 'again');
    rmSync(path.join(dir, 'b.md'));
    expect(await store.read('b.md')).toBeNull();
    await expect(store.process('b.md', (t) => t)).rejects.toThrow('does not exist');
  });
});
