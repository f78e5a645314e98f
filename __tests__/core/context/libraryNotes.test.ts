/**
 * Change detection for the library's notes (issue 16): a turn reads again only the notes whose
 * modification time or size the vault reports changed, with the same freshness answers as reading
 * them all. Real files, the real resolver, engine and tokenizer.
 */
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContextChip } from '../../../src/core/context/items';
import { reReadLibraryNotes } from '../../../src/core/context/libraryNotes';
import { ChipResolver } from '../../../src/core/context/resolver';
import { PromptContextEngine, type TurnInput } from '../../../src/core/engine/engine';
import type { FreshnessPolicy } from '../../../src/core/settings/engineChoices';
import type { VaultReader } from '../../../src/core/ports/vault';
import { promptFragments } from '../../../src/core/systemPrompt';
import { FsVault } from '../../../src/node/fsVault';
import { makeController, memoryProviders, settingsFor } from '../chat/controllerHarness';

const MODEL = 'gpt-4o';
const NOTES = 300;
const fragments = promptFragments();

let tmp: string;
/** The vault under test, and an identical one for the reference answers. */
let root: string;
let copy: string;

const rel = (i: number) => `Area ${i % 7}/Note ${String(i).padStart(3, '0')}.md`;
const full = (p: string, dir = root) => path.join(dir, ...p.split('/'));

beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'strata-library-notes-'));
  root = path.join(tmp, 'vault');
  copy = path.join(tmp, 'copy');
  for (const dir of [root, copy]) {
    for (let i = 0; i < NOTES; i++) {
      mkdirSync(path.dirname(full(rel(i), dir)), { recursive: true });
      writeFileSync(full(rel(i), dir), `# Note ${i}\n\n${`Line ${i} of a note about the plan. `.repeat(20)}\n`);
    }
  }
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

/** FsVault counting its reads; `withStat: false` is a host that cannot tell a note's modification time. */
class CountingVault implements VaultReader {
  reads = 0;
  stats = 0;
  private readonly disk: FsVault;
  readonly stat?: VaultReader['stat'];

  constructor(dir: string, withStat = true) {
    this.disk = new FsVault(dir);
    if (withStat) {
      this.stat = (p: string) => {
        this.stats++;
        return this.disk.stat(p);
      };
    }
  }

  read(p: string): Promise<string | null> {
    this.reads++;
    return this.disk.read(p);
  }

  listMarkdown(): Promise<string[]> {
    return this.disk.listMarkdown();
  }
}

/** A chat whose library holds every note (attached on turn 1), then turns with nothing attached. */
async function chat(policy: FreshnessPolicy = 'fresh', withStat = true, dir = root) {
  const vault = new CountingVault(dir, withStat);
  const resolver = new ChipResolver(vault);
  const engine = new PromptContextEngine({ freshness: policy });
  const chips: ContextChip[] = Array.from({ length: NOTES }, (_, i) => ({ kind: 'note', path: rel(i) }));
  const { items } = await resolver.resolve(chips);
  const first = engine.assemble({ userText: 'Read these.', items, fragments, model: MODEL });
  engine.commit(first, 'Read.');
  /** One more turn (nothing attached): what it read, and what the engine made of it. */
  const turn = async (text: string) => {
    const before = vault.reads;
    const current = await reReadLibraryNotes(resolver, engine.libraryNotes(), []);
    const input: TurnInput = { userText: text, items: [], fragments, model: MODEL, current };
    const assembly = engine.assemble(input);
    engine.commit(assembly, `Reply to ${text}`);
    return { reads: vault.reads - before, current, assembly };
  };
  return { vault, engine, turn };
}

/** The same edit of the copy, on a host without stat (every note read, as before issue 16): the reference answers. */
async function reference(policy: FreshnessPolicy, edit: (dir: string) => void) {
  const { turn } = await chat(policy, false, copy);
  await turn('Two');
  edit(copy);
  return turn('Three');
}

describe('library notes are read again only when the vault says they changed', () => {
  test('a turn over a large unchanged library reads no note (only stats)', async () => {
    const { vault, turn } = await chat();
    // The first check reads each note once (nothing known yet)...
    expect((await turn('Two')).reads).toBe(NOTES);
    const stats = vault.stats;
    // ...then an unchanged library costs a stat per note and no read.
    const third = await turn('Three');
    expect(third.reads).toBe(0);
    expect(vault.stats - stats).toBe(NOTES);
    expect(third.current.size).toBe(NOTES);
    expect(third.assembly.envelope.freshness).toEqual([]);
    expect(third.assembly.prefixChange).toBeNull();
  });

  test('an edited note (its size changed) is read again and sent as before: updated, v2', async () => {
    const edit = (dir = root) => appendFileSync(full(rel(17), dir), '\nA line added later.\n');
    const { turn } = await chat();
    await turn('Two');
    edit();
    const third = await turn('Three');
    expect(third.reads).toBe(1);
    expect(third.assembly.envelope.freshness).toEqual([expect.objectContaining({ id: rel(17), status: 'updated', fromVersion: 1, toVersion: 2 })]);
    expect(third.assembly.messages.map((m) => m.content).join('\n')).toContain('A line added later.');
    const expected = await reference('fresh', edit);
    expect(third.assembly.envelope.freshness).toEqual(expected.assembly.envelope.freshness);
    expect(third.assembly.messages).toEqual(expected.assembly.messages);
  });

  test('an edit of the same size is seen through the modification time', async () => {
    const { turn } = await chat();
    await turn('Two');
    const p = full(rel(5));
    const { mtime } = statSync(p);
    writeFileSync(p, `# Note 5\n\n${`Line 5 of a note about the PLAN. `.repeat(20)}\n`);
    utimesSync(p, mtime, new Date(mtime.getTime() + 5000));
    const third = await turn('Three');
    expect(third.reads).toBe(1);
    expect(third.assembly.envelope.freshness).toEqual([expect.objectContaining({ id: rel(5), status: 'updated' })]);
  });

  test('a deleted note is missing-kept, as before', async () => {
    const edit = (dir = root) => unlinkSync(full(rel(40), dir));
    const { turn } = await chat();
    await turn('Two');
    edit();
    const third = await turn('Three');
    expect(third.current.get(rel(40))).toBeNull();
    expect(third.assembly.envelope.freshness).toEqual([expect.objectContaining({ id: rel(40), status: 'missing-kept' })]);
    expect((await reference('fresh', edit)).assembly.envelope.freshness).toEqual(third.assembly.envelope.freshness);
  });

  test('a note renamed while the chat is open is missing-kept under its old path, as before', async () => {
    const edit = (dir = root) => renameSync(full(rel(41), dir), full('Elsewhere.md', dir));
    const { turn } = await chat();
    await turn('Two');
    edit();
    const third = await turn('Three');
    expect(third.assembly.envelope.freshness).toEqual([expect.objectContaining({ id: rel(41), status: 'missing-kept' })]);
    expect((await reference('fresh', edit)).assembly.envelope.freshness).toEqual(third.assembly.envelope.freshness);
  });

  test('the stable policy still keeps the library copy of an edited note', async () => {
    const edit = (dir = root) => appendFileSync(full(rel(3), dir), '\nEdited.\n');
    const { turn } = await chat('stable');
    await turn('Two');
    edit();
    const third = await turn('Three');
    expect(third.reads).toBe(1);
    expect(third.assembly.envelope.freshness).toEqual([expect.objectContaining({ id: rel(3), status: 'stale-kept' })]);
    expect(third.assembly.messages.map((m) => m.content).join('\n')).not.toContain('Edited.');
    const expected = await reference('stable', edit);
    expect(expected.assembly.messages).toEqual(third.assembly.messages);
  });

  test('an edit is seen once: the turn after it reads nothing again', async () => {
    const { turn } = await chat();
    await turn('Two');
    appendFileSync(full(rel(8)), '\nMore.\n');
    expect((await turn('Three')).reads).toBe(1);
    const fourth = await turn('Four');
    expect(fourth.reads).toBe(0);
    expect(fourth.assembly.envelope.freshness).toEqual([]);
  });

  test('a host that keeps stats in memory (statNow) answers them without a promise, and an edit is still seen', async () => {
    // Obsidian's TFile.stat: what the disk says, known at once (here: the disk's stat, taken synchronously).
    class InMemoryStats extends CountingVault {
      now = 0;
      statNow(p: string): { mtime: number; size: number } | null {
        this.now++;
        try {
          const st = statSync(full(p));
          return { mtime: st.mtimeMs, size: st.size };
        } catch {
          return null;
        }
      }
    }
    const vault = new InMemoryStats(root);
    const resolver = new ChipResolver(vault);
    const engine = new PromptContextEngine();
    const { items } = await resolver.resolve(Array.from({ length: NOTES }, (_, i) => ({ kind: 'note' as const, path: rel(i) })));
    engine.commit(engine.assemble({ userText: 'Read these.', items, fragments, model: MODEL }), 'Read.');
    const check = () => reReadLibraryNotes(resolver, engine.libraryNotes(), []);
    await check();
    const [reads, stats, now] = [vault.reads, vault.stats, vault.now];
    expect((await check()).size).toBe(NOTES);
    expect([vault.reads - reads, vault.stats - stats, vault.now - now]).toEqual([0, 0, NOTES]);
    appendFileSync(full(rel(5)), '\nMore.\n');
    const after = await check();
    expect(vault.reads - reads).toBe(1);
    expect(after.get(rel(5))?.content).toContain('More.');
  });

  test('a host without stat reads every library note every turn, as before', async () => {
    const { turn } = await chat('fresh', false);
    expect((await turn('Two')).reads).toBe(NOTES);
    expect((await turn('Three')).reads).toBe(NOTES);
  });
});

describe('through the chat controller', () => {
  test('a turn over a large unchanged library reads only the new notes', async () => {
    class CountingFsVault extends FsVault {
      reads = 0;
      override read(p: string): Promise<string | null> {
        this.reads++;
        return super.read(p);
      }
    }
    const vault = new CountingFsVault(root);
    const { providers } = memoryProviders();
    const { controller } = makeController(settingsFor('http://127.0.0.1:9'), { providers, vault });
    await controller.send('Read these.', Array.from({ length: 100 }, (_, i) => ({ kind: 'note' as const, path: rel(i) })));
    await controller.send('And this one.', [{ kind: 'note', path: rel(100) }]);
    const before = vault.reads;
    await controller.send('And this one too.', [{ kind: 'note', path: rel(101) }]);
    // The note it attaches, and the one attached the turn before (checked as a library note for the first time).
    expect(vault.reads - before).toBe(2);
    appendFileSync(full(rel(50)), '\nChanged.\n');
    await controller.send('Anything new?', []);
    const last = controller.state.answered.at(-1);
    expect(last?.envelope?.freshness).toEqual([expect.objectContaining({ id: rel(50), status: 'updated' })]);
  });
});
