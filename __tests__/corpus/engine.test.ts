import path from 'node:path';
import { ChipResolver } from '../../src/core/context/resolver';
import { PromptContextEngine } from '../../src/core/engine/engine';
import { promptFragments } from '../../src/core/systemPrompt';
import { FsVault } from '../../src/node/fsVault';
import { WRAPPER_CLOSE, WRAPPER_OPEN } from '../helpers/engineHarness';
import { CORPUS } from '../helpers/paths';

// Every note of each shared corpus vault through the resolver and engine at once.
const VAULTS = ['tasks-docs', 'tasks-demo', 'kepano'];

describe.each(VAULTS)('the engine over the %s vault', (name) => {
  const vault = new FsVault(path.join(CORPUS, name));

  it('resolves, counts and renders every note, each inside its own wrapper', async () => {
    const paths = await vault.listMarkdown();
    expect(paths.length).toBeGreaterThan(20);
    const resolver = new ChipResolver(vault);
    const { items, problems } = await resolver.resolve(paths.map((p) => ({ kind: 'note' as const, path: p })));
    expect(problems).toEqual([]);
    // Each note, then its Dataview blocks' items (issue 31: as query text here, with no Dataview), right after it.
    expect(items.filter((i) => i.kind === 'note').map((i) => i.id)).toEqual(paths);
    items.forEach((item, i) => {
      if (item.kind === 'note') return;
      expect(item.kind).toBe('dataview');
      const owner = items.slice(0, i).reverse().find((x) => x.kind === 'note');
      expect(item.id.startsWith(`${owner?.id ?? '?'}#dataview-`)).toBe(true);
    });
    const ids = items.map((i) => i.id);

    const engine = new PromptContextEngine();
    const assembly = engine.assemble({ userText: 'Summarise the vault.', items, fragments: promptFragments(), model: 'gpt-4o' });
    expect(assembly.envelope.full).toHaveLength(items.length);
    for (const s of assembly.envelope.layers.L3.segments) {
      expect(s.tokens).toBeGreaterThan(0);
    }
    expect(assembly.promptTokens).toBeGreaterThan(assembly.envelope.layers.L3.tokens);

    const user = assembly.messages[assembly.messages.length - 1].content;
    // Whatever the notes contain, the only wrappers are ours: one open and one close per item, in order.
    expect((user.match(WRAPPER_OPEN) ?? []).length).toBe(items.length);
    expect((user.match(WRAPPER_CLOSE) ?? []).length).toBe(items.length);
    const sent = [...user.matchAll(/<note_context id="([^"]*)"/g)].map((m) => m[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
    expect(sent).toEqual(ids);
    expect(user.endsWith('Summarise the vault.')).toBe(true);
    expect(assembly.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });
});
