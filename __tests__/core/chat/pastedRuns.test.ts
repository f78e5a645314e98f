/**
 * Issue 26, finding 1, done when: a pasted note with 20k spaces, 20k tabs, 20k NBSP, 50k CJK
 * characters, 20k emoji and 100k letters attaches, counts and sends, through the chat controller,
 * the resolver, the engine and the chat note. The counts are asserted against the tokenizer's own
 * merge (linearBpe.ts, exact); the time is measured by the bench (npm run bench -- --only tokens).
 * On main the first count of this note does not end within the test's timeout.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderItem } from '../../../src/core/engine/render';
import { linearEncoderFor } from '../../../src/core/tokens/tokenCounter';
import { FsVault } from '../../../src/node/fsVault';
import { makeController, memoryProviders, NoteFiles, settingsFor } from './controllerHarness';

export function pastedNote(): string {
  return [
    '# Pasted',
    '',
    ' '.repeat(20_000),
    '\t'.repeat(20_000),
    '\u00a0'.repeat(20_000),
    '漢字'.repeat(25_000),
    '😀👍🏽'.repeat(10_000),
    'a'.repeat(100_000),
    '',
    'The end.',
    '',
  ].join('\n');
}

test('a pasted note of long runs attaches, counts and sends; its counts are exact', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-runs-'));
  try {
    writeFileSync(path.join(dir, 'Pasted.md'), pastedNote(), 'utf8');
    // Room for the whole note (about 106,000 tokens): it is to be sent whole, not planned.
    const settings = { ...settingsFor('http://127.0.0.1:9'), contextPlanning: 'off' as const, maxContextTokens: 300_000, contextWindows: { 'gpt-4o': 400_000 } };
    const { providers, model } = memoryProviders();
    const { controller } = makeController(settings, { providers, files: new NoteFiles(), vault: new FsVault(dir), ids: ['chat-runs'] });
    const chips = [{ kind: 'note' as const, path: 'Pasted.md' }];
    await controller.previewNext(chips);
    const preview = controller.state.nextRequest;
    expect(preview).not.toBeNull();
    await controller.send('What is in it?', chips);
    await controller.flush();
    expect(controller.state.warnings).toEqual([]);
    const [item] = controller.state.library;
    expect(item.source).toBe('Pasted.md');
    // The library item's tokens are its block's, counted exactly.
    const linear = linearEncoderFor('o200k_base');
    if (!linear) throw new Error('no linear encoder');
    const block = renderItem({ id: item.id, kind: item.kind, title: item.title, source: item.source, version: item.version, hash: '', content: pastedNote(), tokens: 0, enteredTurn: 1 });
    expect(item.tokens).toBe(linear.encode(block).length);
    expect(item.tokens).toBeGreaterThan(50_000);
    // The note went out whole.
    const sent = model.lastMessages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    expect(sent).toContain('a'.repeat(100_000));
    expect(sent).toContain('漢字'.repeat(25_000));
    expect(controller.state.answered).toHaveLength(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
