/**
 * The agent's read-only vault tools (issue 14) over a small fixture vault on disk, with the real
 * filesystem vault, a real VaultIndex search and a real local HTTP server for fetchUrl.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost, type FsToolHostOptions } from '../../../src/node/toolHost';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { SourceCatalog } from '../../../src/core/agent/sourceCatalog';
import { AGENT_TOOLS, runToolCall, toolSpecs } from '../../../src/core/agent/toolbox';
import type { ToolContext } from '../../../src/core/agent/tool';
import type { ToolHost } from '../../../src/core/ports/toolHost';
import type { ToolResult } from '../../../src/core/conversation/records/agent';
import { READ_LIMIT_CHARS } from '../../../src/core/agent/tools/readNote';
import { FETCH_LIMIT_CHARS } from '../../../src/core/agent/tools/fetchUrl';
import { AGENT_CITATION_RULES, localSearchBlock } from '../../../src/core/vaultQa/localSearchBlock';

const VAULT = path.join(__dirname, 'fixtures', 'vault');
const noPause = (): Promise<void> => Promise.resolve();

let index: VaultIndex;
beforeAll(async () => {
  // The chat folder is indexed on purpose: the tools, not the index, must keep chats out.
  index = new VaultIndex(new FsVault(VAULT), { excludedFolders: [] });
  await index.build({ pause: noPause });
});

// The loopback test server stands for the web here: local addresses allowed (the refusal: ssrf.test.ts).
function host(options: Partial<FsToolHostOptions> = {}): ToolHost {
  return fsToolHost({ vault: new FsVault(VAULT), search: index, hidden: ['Strata'], allowLocalAddresses: true, ...options });
}

function context(h: ToolHost = host(), signal: AbortSignal = new AbortController().signal, sources = new SourceCatalog()): ToolContext {
  return { host: h, signal, sources };
}

let calls = 0;
async function call(name: string, args: Record<string, unknown>, ctx: ToolContext = context()): Promise<ToolResult> {
  const id = `call_${++calls}`;
  const result = await runToolCall({ id, name, args }, AGENT_TOOLS, ctx);
  expect(result.callId).toBe(id);
  expect(result.name).toBe(name);
  return result;
}

async function ok(name: string, args: Record<string, unknown>, ctx?: ToolContext): Promise<string> {
  const result = await call(name, args, ctx);
  expect([result.isError, result.content.slice(0, 200)]).toEqual([false, result.content.slice(0, 200)]);
  return result.content;
}

async function failure(name: string, args: Record<string, unknown>, ctx?: ToolContext): Promise<string> {
  const result = await call(name, args, ctx);
  expect(result.isError).toBe(true);
  expect(result.content.startsWith('Error: ')).toBe(true);
  return result.content;
}

describe('toolSpecs', () => {
  test('every tool in a fixed order, with a JSON Schema of its arguments: properties, required, no $schema', () => {
    const specs = toolSpecs(AGENT_TOOLS);
    expect(specs.map((s) => s.name)).toEqual(['localSearch', 'readNote', 'listFolder', 'findByTag', 'getActiveNote', 'getBacklinks', 'fetchUrl']);
    const byName = Object.fromEntries(specs.map((s) => [s.name, s]));
    const shape = (name: string) => {
      const p = byName[name].parameters as { type: string; properties: Record<string, { type?: string }>; required?: string[] };
      return { type: p.type, properties: Object.fromEntries(Object.entries(p.properties).map(([k, v]) => [k, v.type])), required: p.required ?? [] };
    };
    expect(shape('localSearch')).toEqual({ type: 'object', properties: { query: 'string', k: 'integer' }, required: ['query'] });
    expect(shape('readNote')).toEqual({ type: 'object', properties: { path: 'string', heading: 'string', startLine: 'integer', endLine: 'integer' }, required: ['path'] });
    expect(shape('listFolder')).toEqual({ type: 'object', properties: { path: 'string', depth: 'integer' }, required: [] });
    expect(shape('findByTag')).toEqual({ type: 'object', properties: { tag: 'string', includeNested: 'boolean' }, required: ['tag'] });
    expect(shape('getActiveNote')).toEqual({ type: 'object', properties: {}, required: [] });
    expect(shape('getBacklinks')).toEqual({ type: 'object', properties: { path: 'string' }, required: ['path'] });
    expect(shape('fetchUrl')).toEqual({ type: 'object', properties: { url: 'string' }, required: ['url'] });
    expect((byName.localSearch.parameters.properties as Record<string, unknown>).k).toMatchObject({ minimum: 1, maximum: 20 });
    expect((byName.listFolder.parameters.properties as Record<string, unknown>).depth).toMatchObject({ minimum: 1, maximum: 5 });
    // No ±2^53 bounds zod puts on every integer.
    expect((byName.readNote.parameters.properties as Record<string, unknown>).startLine).toEqual({ type: 'integer', minimum: 1, description: 'First line to read (1-based).' });
    for (const spec of specs) {
      expect(spec.parameters).not.toHaveProperty('$schema');
      expect(spec.description.length).toBeGreaterThan(80);
      // Every argument is described for the model.
      for (const prop of Object.values(spec.parameters.properties as Record<string, { description?: string }>)) expect(prop.description).toBeTruthy();
    }
    // Deterministic: byte-identical on every call.
    expect(JSON.stringify(toolSpecs(AGENT_TOOLS))).toBe(JSON.stringify(specs));
  });
});

describe('runToolCall', () => {
  test('invalid arguments name the field and the problem', async () => {
    expect(await failure('readNote', {})).toBe('Error: readNote: invalid arguments: path: expected string (missing)');
    expect(await failure('readNote', { path: 3 })).toBe('Error: readNote: invalid arguments: path: expected string, received number');
    const k = await failure('localSearch', { query: 'tomato', k: 40 });
    expect(k).toMatch(/^Error: localSearch: invalid arguments: k: too big: expected number to be <=20/);
    expect(await failure('listFolder', { depth: 1.5 })).toMatch(/^Error: listFolder: invalid arguments: depth: /);
  });

  test('null arguments count as absent; a JSON string of arguments is read', async () => {
    expect(await ok('listFolder', { path: null, depth: 1 })).toContain('Contents of the vault');
    const result = await runToolCall({ id: 'x', name: 'readNote', args: '{"path":"Compost"}' as unknown as Record<string, unknown> }, AGENT_TOOLS, context());
    expect(result.isError).toBe(false);
    expect(result.content.split('\n')[0]).toBe('Garden/Compost.md (lines 1-5 of 5)');
  });

  test('an unknown tool is an error result listing the tools', async () => {
    expect(await failure('deleteNote', { path: 'Home.md' })).toBe(
      'Error: unknown tool "deleteNote". Available tools: localSearch, readNote, listFolder, findByTag, getActiveNote, getBacklinks, fetchUrl.',
    );
  });

  test('a throwing host gives an error result, never an exception', async () => {
    const vault = new FsVault(VAULT);
    const broken: ToolHost = {
      ...host(),
      vault: { read: () => Promise.reject(new Error('disk on fire')), listMarkdown: () => vault.listMarkdown() },
      search: () => ({ search: () => Promise.reject(new Error('index corrupt')) }),
    };
    expect(await failure('readNote', { path: 'Home.md' }, context(broken))).toBe('Error: readNote failed: disk on fire');
    expect(await failure('localSearch', { query: 'tomato' }, context(broken))).toBe('Error: localSearch failed: index corrupt');
  });

  test('a stopped turn rejects with an AbortError, before or during a call', async () => {
    const before = new AbortController();
    before.abort();
    await expect(runToolCall({ id: 'a', name: 'listFolder', args: {} }, AGENT_TOOLS, context(host(), before.signal))).rejects.toMatchObject({ name: 'AbortError' });
    const during = new AbortController();
    const stopping: ToolHost = {
      ...host(),
      search: () => ({
        search: () => {
          during.abort();
          return Promise.reject(new Error('search was stopped'));
        },
      }),
    };
    const run = runToolCall({ id: 'b', name: 'localSearch', args: { query: 'tomato' } }, AGENT_TOOLS, context(stopping, during.signal));
    await expect(run).rejects.toBeInstanceOf(DOMException);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('localSearch', () => {
  test('the Vault QA block: instruction, numbered sources, chunks with line ranges, the agent citation rules', async () => {
    const out = await ok('localSearch', { query: 'hornworms on the leaves', k: 3 });
    const lines = out.split('\n');
    expect(lines[0]).toBe('Vault search for: hornworms on the leaves');
    expect(lines).toContain('Sources:');
    expect(lines).toContain('[1] Garden/Tomatoes.md › Pests');
    expect(out).toContain('--- [1] Garden/Tomatoes.md › Pests (lines 19-28) ---\n## Pests\n\nHornworms chew the leaves');
    expect(out.endsWith(`---\n${AGENT_CITATION_RULES}`)).toBe(true);
  });

  test('the chat folder never shows, even when the index has it; at most 3 passages a note; a scope keeps inside', async () => {
    const out = await ok('localSearch', { query: 'how much sun do tomatoes need', k: 20 });
    expect(out).not.toContain('Strata/');
    const withChats = await ok('localSearch', { query: 'how much sun do tomatoes need', k: 20 }, context(host({ hidden: [] })));
    expect(withChats).toContain('Strata/Chat about tomatoes.md');
    const perNote = (out.match(/^--- \[\d+\] Garden\/Tomatoes\.md/gm) ?? []).length;
    expect(perNote).toBeGreaterThan(0);
    expect(perNote).toBeLessThanOrEqual(3);
    const scoped = await ok('localSearch', { query: 'tomatoes', k: 20 }, context(host({ scope: 'Projects' })));
    expect(scoped).toContain('Projects/Greenhouse plan.md');
    for (const m of scoped.matchAll(/^\[\d+\] (.*)$/gm)) expect(m[1].startsWith('Projects/')).toBe(true);
  });

  test('two searches of one turn continue the numbering; a source seen before keeps its number', async () => {
    const ctx = context();
    const first = await ok('localSearch', { query: 'hornworms whitefly pests', k: 2 }, ctx);
    const second = await ok('localSearch', { query: 'greenhouse budget foundation', k: 3 }, ctx);
    const third = await ok('localSearch', { query: 'hornworms whitefly pests', k: 2 }, ctx);
    const numbered = (out: string) => [...out.matchAll(/^\[(\d+)\] (.*)$/gm)].map((m) => [Number(m[1]), m[2]] as const);
    const a = numbered(first);
    const b = numbered(second);
    expect(a.map(([n]) => n)).toEqual(a.map((_, i) => i + 1));
    const size = a.length;
    expect(b.length).toBeGreaterThan(0);
    let next = size + 1;
    for (const [n, label] of b) {
      const before = a.find(([, l]) => l === label);
      // Seen in the first search: its old number; new: the next number after the first search's.
      expect(n).toBe(before ? before[0] : next++);
    }
    expect(b.some(([, label]) => !a.some(([, l]) => l === label))).toBe(true);
    expect(numbered(third)).toEqual(a);
    // No two sources share a number across the turn.
    const all = ctx.sources.all();
    expect(new Set(all.map((s) => `${s.path}#${s.heading}`)).size).toBe(all.length);
    expect([...a, ...b].every(([n, label]) => label === (all[n - 1].heading ? `${all[n - 1].path} › ${all[n - 1].heading}` : all[n - 1].path))).toBe(true);
  });

  test('localSearchBlock without a catalog is unchanged; with one it numbers through it', () => {
    const hit = { path: 'a.md', headings: ['A'], heading: 'A', startLine: 1, endLine: 2, text: '# A\ntext', snippet: 'text', score: 1 };
    const plain = localSearchBlock('q', [hit]);
    const catalog = new SourceCatalog([{ path: 'z.md', heading: '' }]);
    const numbered = localSearchBlock('q', [hit], catalog);
    expect(plain.tool.output).toContain('[1] a.md › A');
    expect(numbered.tool.output).toContain('[2] a.md › A');
    expect(numbered.tool.output).toContain('--- [2] a.md › A (lines 1-2) ---');
    expect(catalog.all()).toEqual([{ path: 'z.md', heading: '' }, { path: 'a.md', heading: 'A' }]);
  });

  test('no index yet: the tool says so', async () => {
    expect(await failure('localSearch', { query: 'tomato' }, context(host({ search: null })))).toMatch(/^Error: the vault search index is still being built/);
  });

  test('nothing found: the agent is told to search again or look elsewhere', async () => {
    const out = await ok('localSearch', { query: 'zeppelin' });
    expect(out).toContain('Nothing relevant was found');
    expect(out).toContain('Try other words');
  });
});

describe('readNote', () => {
  test('a whole note by path, by name, by name without case, as a wikilink', async () => {
    const whole = await ok('readNote', { path: 'Garden/Compost.md' });
    expect(whole).toBe(
      'Garden/Compost.md (lines 1-5 of 5)\n# Compost\n\nTurn the heap every two weeks. #garden\n\nSpent plants go here, except diseased ones (see [[Tomatoes#Pests]]).',
    );
    expect(await ok('readNote', { path: 'Garden/Compost' })).toBe(whole);
    expect(await ok('readNote', { path: 'compost' })).toBe(whole);
    expect(await ok('readNote', { path: '[[Compost]]' })).toBe(whole);
    expect(await ok('readNote', { path: '/garden/compost.md' })).toBe(whole);
  });

  test('a heading section includes its sub-headings and ends at the next heading of its level', async () => {
    const planting = await ok('readNote', { path: 'Tomatoes', heading: 'Planting' });
    expect(planting).toBe(
      'Garden/Tomatoes.md (lines 11-17 of 32)\n## Planting\n\nPlant seedlings after the last frost, burying the stem up to the first leaves.\n\n### Spacing\n\nLeave sixty centimetres between plants so air moves through the leaves.',
    );
    expect(await ok('readNote', { path: 'Tomatoes', heading: '## planting' })).toBe(planting);
    expect(await ok('readNote', { path: 'Tomatoes', heading: 'Tomatoes > Planting' })).toBe(planting);
    expect((await ok('readNote', { path: 'Tomatoes', heading: 'Spacing' })).split('\n')[0]).toBe('Garden/Tomatoes.md (lines 15-17 of 32)');
    // `Note#Heading` as a wikilink writes it.
    expect(await ok('readNote', { path: 'Tomatoes#Planting' })).toBe(planting);
  });

  test('a "#" line inside a code fence is not a heading: the section runs past it', async () => {
    const pests = await ok('readNote', { path: 'Garden/Tomatoes.md', heading: 'Pests' });
    expect(pests.split('\n')[0]).toBe('Garden/Tomatoes.md (lines 19-28 of 32)');
    expect(pests).toContain('# Not a heading: a comment in a script');
    expect(pests).toContain('Whitefly gathers under the leaves');
    expect(pests).not.toContain('## Harvest');
    const missing = await failure('readNote', { path: 'Garden/Tomatoes.md', heading: 'Not a heading: a comment in a script' });
    expect(missing).toBe(
      'Error: no heading "Not a heading: a comment in a script" in Garden/Tomatoes.md; its headings are: Tomatoes; Tomatoes › Planting; Tomatoes › Planting › Spacing; Tomatoes › Pests; Tomatoes › Harvest.',
    );
  });

  test('a line range, 1-based and inclusive; the end is clamped; bad ranges are errors', async () => {
    expect(await ok('readNote', { path: 'Tomatoes', startLine: 7, endLine: 9 })).toBe(
      'Garden/Tomatoes.md (lines 7-9 of 32)\n# Tomatoes\n\nTomatoes want six to eight hours of full sun and deep, even watering.',
    );
    expect((await ok('readNote', { path: 'Tomatoes', startLine: 30, endLine: 99 })).split('\n')).toEqual([
      'Garden/Tomatoes.md (lines 30-32 of 32)',
      '## Harvest',
      '',
      'Pick when the fruit is fully coloured and gives a little under the thumb.',
    ]);
    expect((await ok('readNote', { path: 'Tomatoes', startLine: 1, endLine: 1 })).split('\n')).toEqual(['Garden/Tomatoes.md (lines 1-1 of 32)', '---']);
    expect(await failure('readNote', { path: 'Tomatoes', startLine: 40 })).toBe('Error: Garden/Tomatoes.md has 32 lines; startLine 40 is past its end.');
    expect(await failure('readNote', { path: 'Tomatoes', startLine: 9, endLine: 3 })).toBe('Error: endLine 3 is before startLine 9.');
    expect(await failure('readNote', { path: 'Tomatoes', heading: 'Pests', startLine: 3 })).toBe('Error: give either heading or startLine/endLine, not both.');
  });

  test('an ambiguous name lists the notes; a missing one points to localSearch and listFolder', async () => {
    expect(await failure('readNote', { path: 'Ideas' })).toBe('Error: "Ideas" matches 2 notes; give the full path of one: Garden/Ideas.md, Kitchen/Ideas.md.');
    expect((await ok('readNote', { path: 'Kitchen/Ideas' })).split('\n')[0]).toBe('Kitchen/Ideas.md (lines 1-3 of 3)');
    const missing = await failure('readNote', { path: 'Potatoes' });
    expect(missing).toMatch(/^Error: no note "Potatoes"\. /);
    expect(missing).toContain('localSearch');
    expect(missing).toContain('listFolder');
  });

  test('the hidden chat folder and notes outside the project folder are refused', async () => {
    expect(await failure('readNote', { path: 'Strata/Chat about tomatoes.md' })).toBe(
      'Error: "Strata/Chat about tomatoes.md" is in a folder the tools do not read (saved chats are not sources).',
    );
    // A loose name never reaches a hidden note.
    expect(await failure('readNote', { path: 'Chat about tomatoes' })).toMatch(/^Error: no note "Chat about tomatoes"/);
    const scoped = context(host({ scope: 'Projects' }));
    expect(await failure('readNote', { path: 'Garden/Tomatoes.md' }, scoped)).toBe(
      'Error: "Garden/Tomatoes.md" is outside the project folder "Projects": the tools only read notes inside it.',
    );
    expect(await failure('readNote', { path: 'Tomatoes' }, scoped)).toMatch(/^Error: no note "Tomatoes" in the project folder "Projects"/);
    expect((await ok('readNote', { path: 'Meeting' }, scoped)).split('\n')[0]).toBe('Projects/Notes/Meeting.md (lines 1-3 of 3)');
    // A path relative to the project folder.
    expect((await ok('readNote', { path: 'Notes/Meeting.md' }, scoped)).split('\n')[0]).toBe('Projects/Notes/Meeting.md (lines 1-3 of 3)');
  });
});

describe('listFolder', () => {
  test('the vault root: folders first, then notes, code-point order, two spaces a level, counts on folders cut by depth', async () => {
    expect(await ok('listFolder', {})).toBe(
      [
        'Contents of the vault: 9 notes (depth 2).',
        'Garden/',
        '  Compost.md',
        '  Ideas.md',
        '  Seed list.md',
        '  Tomatoes.md',
        'Kitchen/',
        '  Ideas.md',
        '  Passata.md',
        'Projects/',
        '  Notes/ (1 note)',
        '  Greenhouse plan.md',
        'Home.md',
      ].join('\n'),
    );
    expect(await ok('listFolder', { depth: 1 })).toBe(
      ['Contents of the vault: 9 notes (depth 1).', 'Garden/ (4 notes)', 'Kitchen/ (2 notes)', 'Projects/ (2 notes)', 'Home.md'].join('\n'),
    );
  });

  test('a sub-folder, any case; a note or a missing folder is an error; the scope is the default and the limit', async () => {
    expect(await ok('listFolder', { path: 'projects/', depth: 3 })).toBe(
      ['Contents of "Projects/": 2 notes (depth 3).', 'Notes/', '  Meeting.md', 'Greenhouse plan.md'].join('\n'),
    );
    expect(await failure('listFolder', { path: 'Home.md' })).toBe('Error: "Home.md" is a note, not a folder: read it with readNote.');
    expect(await failure('listFolder', { path: 'Attic' })).toMatch(/^Error: no folder "Attic" with markdown notes/);
    expect(await failure('listFolder', { path: 'Strata' })).toBe('Error: "Strata" is in a folder the tools do not read (saved chats are not sources).');
    const scoped = context(host({ scope: 'Projects' }));
    expect((await ok('listFolder', {}, scoped)).split('\n')[0]).toBe('Contents of the project folder "Projects/": 2 notes (depth 2).');
    expect((await ok('listFolder', { path: 'Notes' }, scoped)).split('\n')).toEqual(['Contents of "Projects/Notes/": 1 note (depth 2).', 'Meeting.md']);
    expect(await failure('listFolder', { path: 'Garden' }, scoped)).toBe('Error: "Garden" is outside the project folder "Projects": the tools only read notes inside it.');
  });
});

describe('findByTag', () => {
  test('frontmatter and inline tags, nested ones by default, with or without "#"', async () => {
    expect(await ok('findByTag', { tag: '#garden' })).toBe(
      [
        '3 notes are tagged #garden (nested tags included):',
        '- Garden/Compost.md',
        '- Garden/Seed list.md (#garden/seeds)',
        '- Garden/Tomatoes.md',
      ].join('\n'),
    );
    expect(await ok('findByTag', { tag: 'Garden', includeNested: false })).toBe(
      ['2 notes are tagged #garden:', '- Garden/Compost.md', '- Garden/Tomatoes.md'].join('\n'),
    );
    expect(await ok('findByTag', { tag: 'project/greenhouse' })).toBe(
      ['2 notes are tagged #project/greenhouse (nested tags included):', '- Projects/Greenhouse plan.md', '- Projects/Notes/Meeting.md'].join('\n'),
    );
    expect(await ok('findByTag', { tag: 'kitchen' })).toBe('1 note is tagged #kitchen (nested tags included):\n- Kitchen/Passata.md');
  });

  test('no match suggests similar tags; a tag with spaces is an error', async () => {
    expect(await ok('findByTag', { tag: 'vegetables' })).toBe('No notes are tagged #vegetables (nested tags included). Similar tags in the vault: #garden/vegetables.');
    expect(await ok('findByTag', { tag: 'zeppelin' })).toBe('No notes are tagged #zeppelin (nested tags included). Try localSearch to find notes by their text.');
    expect(await failure('findByTag', { tag: 'two words' })).toMatch(/^Error: "two words" is not a tag/);
  });
});

describe('getActiveNote', () => {
  test('the open note with its text; none open; a host that cannot tell; a hidden note', async () => {
    const out = await ok('getActiveNote', {}, context(host({ activeNote: 'Garden/Compost.md' })));
    expect(out.split('\n').slice(0, 3)).toEqual(['The note open in the editor is Garden/Compost.md.', 'Garden/Compost.md (lines 1-5 of 5)', '# Compost']);
    expect(await ok('getActiveNote', {}, context(host({ activeNote: () => Promise.resolve(null) })))).toBe('No note is open in the editor.');
    expect(await failure('getActiveNote', {}, context(host()))).toMatch(/^Error: this app cannot tell which note is open/);
    expect(await failure('getActiveNote', {}, context(host({ activeNote: 'Strata/Chat about tomatoes.md' })))).toMatch(/^Error: the open note cannot be read: /);
  });
});

describe('getBacklinks', () => {
  test('wikilinks, aliases, headings, embeds and markdown links, each with its first linking line; code, the note itself and hidden chats left out', async () => {
    expect(await ok('getBacklinks', { path: 'Tomatoes' })).toBe(
      [
        '4 notes link to Garden/Tomatoes.md:',
        '- Garden/Compost.md (line 5): Spent plants go here, except diseased ones (see [[Tomatoes#Pests]]).',
        '- Home.md (line 3): Start here. The vegetable patch lives in [[Tomatoes]] and [[Garden/Compost|the compost notes]].',
        '- Kitchen/Passata.md (line 7): The harvest from [[Tomatoes]] fills about twelve jars.',
        '- Projects/Greenhouse plan.md (line 14): Early [[Tomatoes]] and peppers; see also [[Meeting]].',
      ].join('\n'),
    );
    expect(await ok('getBacklinks', { path: 'Garden/Compost.md' })).toBe('1 note links to Garden/Compost.md:\n- Home.md (line 3): Start here. The vegetable patch lives in [[Tomatoes]] and [[Garden/Compost|the compost notes]].');
    expect(await ok('getBacklinks', { path: 'Seed list' })).toBe('1 note links to Garden/Seed list.md:\n- Home.md (line 5): ![[Seed list]]');
    expect(await ok('getBacklinks', { path: 'Greenhouse plan' })).toBe(
      '1 note links to Projects/Greenhouse plan.md:\n- Home.md (line 7): The greenhouse is planned in [the plan](Projects/Greenhouse%20plan.md).',
    );
    expect(await ok('getBacklinks', { path: 'Home' })).toBe('No notes link to Home.md.');
    expect(await host().backlinks?.('Garden/Tomatoes.md')).toContain('Garden/Tomatoes.md'); // the host sees the self-link; the tool leaves it out
  });

  test('a host that cannot tell, or does not know yet', async () => {
    const h = host();
    expect(await failure('getBacklinks', { path: 'Tomatoes' }, context({ ...h, backlinks: undefined }))).toMatch(/^Error: this app cannot tell which notes link/);
    expect(await failure('getBacklinks', { path: 'Tomatoes' }, context({ ...h, backlinks: () => Promise.resolve(null) }))).toMatch(/^Error: the links to Garden\/Tomatoes.md are not known yet/);
  });
});

describe('caps and truncation lines', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-agent-'));
    const long = Array.from({ length: 1000 }, (_, i) => `Line ${i + 1}: ${'word '.repeat(8).trim()}`).join('\n');
    await fs.writeFile(path.join(dir, 'Long.md'), `# Long\n\n${long}\n`);
    await fs.mkdir(path.join(dir, 'Many'));
    for (let i = 0; i < 450; i++) await fs.writeFile(path.join(dir, 'Many', `Note ${String(i).padStart(3, '0')}.md`), `#bulk\nnote ${i}\n`);
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });
  const capped = (): ToolContext => context(fsToolHost({ vault: new FsVault(dir), search: null }));

  test(`readNote stops at ${READ_LIMIT_CHARS} characters and says how to read on`, async () => {
    const out = await ok('readNote', { path: 'Long' }, capped());
    const lines = out.split('\n');
    const header = /^Long\.md \(lines 1-(\d+) of 1002\)$/.exec(lines[0]);
    expect(header).not.toBeNull();
    const shownEnd = Number(header?.[1]);
    const body = lines.slice(1, -1).join('\n');
    expect(body.length).toBeLessThanOrEqual(READ_LIMIT_CHARS);
    expect(body.length).toBeGreaterThan(READ_LIMIT_CHARS - 100);
    expect(lines[lines.length - 1]).toBe(
      `[… ${1002 - shownEnd} more lines not shown (lines ${shownEnd + 1}-1002): the output is limited to ${READ_LIMIT_CHARS} characters. Read on with startLine ${shownEnd + 1}, or read one heading's section with heading.]`,
    );
    // Reading on from there gives the next lines.
    const next = await ok('readNote', { path: 'Long', startLine: shownEnd + 1, endLine: shownEnd + 2 }, capped());
    expect(next.split('\n')[0]).toBe(`Long.md (lines ${shownEnd + 1}-${shownEnd + 2} of 1002)`);
  });

  test('listFolder stops at 400 lines; findByTag at 200 notes; each says how many more', async () => {
    const listed = (await ok('listFolder', { path: 'Many' }, capped())).split('\n');
    expect(listed).toHaveLength(1 + 400 + 1);
    expect(listed[0]).toBe('Contents of "Many/": 450 notes (depth 2).');
    expect(listed[400]).toBe('Note 399.md');
    expect(listed[401]).toBe('… 50 more lines not shown: list a sub-folder, or use a smaller depth.');
    const tagged = (await ok('findByTag', { tag: 'bulk' }, capped())).split('\n');
    expect(tagged[0]).toBe('450 notes are tagged #bulk (nested tags included):');
    expect(tagged).toHaveLength(1 + 200 + 1);
    expect(tagged[201]).toBe('… 250 more not listed (450 in all): narrow the tag (a nested one) or use localSearch.');
  });
});

describe('fetchUrl', () => {
  let server: http.Server;
  let base: string;
  const page = `<!doctype html><html><head><title>Growing &amp; Keeping Tomatoes</title><style>body { color: red }</style><script>track()</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<h1>Growing tomatoes</h1><p>Tomatoes need <strong>full sun</strong>. See the <a href="/guide/pests">pest guide</a> and <a href="https://example.org/seeds">seeds</a>.</p>
<h2>Watering</h2><ul><li>Water deeply</li><li>Mulch well</li></ul><pre><code>water --deep</code></pre></body></html>`;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page);
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/page' });
        res.end();
      } else if (req.url === '/notes.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('plain text notes\n');
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html><head><title>Big</title></head><body>${Array.from({ length: 2000 }, (_, i) => `<p>Paragraph ${i} ${'lorem '.repeat(5)}</p>`).join('')}</body></html>`);
      } else if (req.url === '/file.bin') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.from([0, 1, 2, 3, 255, 0, 7]));
      } else if (req.url === '/image.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]));
      } else {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<h1>Not found</h1>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('an HTML page as markdown: title, source, headings, lists, code, absolute links; scripts, styles and navigation left out', async () => {
    const out = await ok('fetchUrl', { url: `${base}/page` });
    expect(out).toBe(
      [
        '# Growing & Keeping Tomatoes',
        `Source: ${base}/page`,
        '',
        '# Growing tomatoes',
        '',
        `Tomatoes need **full sun**. See the [pest guide](${base}/guide/pests) and [seeds](https://example.org/seeds).`,
        '',
        '## Watering',
        '',
        '-   Water deeply',
        '-   Mulch well',
        '',
        '```',
        'water --deep',
        '```',
      ].join('\n'),
    );
    // Redirects are followed; the source is where the page was found.
    expect((await ok('fetchUrl', { url: `${base}/moved` })).split('\n')[1]).toBe(`Source: ${base}/page`);
    expect(await ok('fetchUrl', { url: `${base}/notes.txt` })).toBe(`# ${base}/notes.txt\nSource: ${base}/notes.txt\n\nplain text notes`);
  });

  test(`a long page is cut at ${FETCH_LIMIT_CHARS} characters with a line saying so`, async () => {
    const out = await ok('fetchUrl', { url: `${base}/big` });
    const [head, rest] = [out.slice(0, out.indexOf('\n\n') + 2), out.slice(out.indexOf('\n\n') + 2)];
    expect(head).toBe(`# Big\nSource: ${base}/big\n\n`);
    const last = rest.slice(rest.lastIndexOf('\n') + 1);
    expect(last).toMatch(new RegExp(`^\\[… page cut: \\d+ more characters not shown \\(the output is limited to ${FETCH_LIMIT_CHARS} characters\\)\\.\\]$`));
    expect(rest.length).toBeLessThanOrEqual(FETCH_LIMIT_CHARS + last.length + 2);
    expect(rest).toContain('Paragraph 0 ');
    expect(rest).not.toContain('Paragraph 1999');
  });

  test('a 404, a binary or an image, a refused connection, a non-http address: clear error texts', async () => {
    expect(await failure('fetchUrl', { url: `${base}/nothing-here` })).toBe(`Error: fetching ${base}/nothing-here failed: the server answered HTTP 404.`);
    expect(await failure('fetchUrl', { url: `${base}/file.bin` })).toBe(
      `Error: could not fetch ${base}/file.bin: the page is not HTML or text (content type application/octet-stream); only web pages and text files can be read`,
    );
    expect(await failure('fetchUrl', { url: `${base}/image.png` })).toMatch(/content type image\/png/);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await failure('fetchUrl', { url: `http://127.0.0.1:${port}/` })).toMatch(new RegExp(`^Error: could not fetch http://127.0.0.1:${port}/: fetch failed \\(ECONNREFUSED`));
    expect(await failure('fetchUrl', { url: 'file:///etc/passwd' })).toBe('Error: only http and https addresses can be fetched, not file:');
    expect(await failure('fetchUrl', { url: 'not a url' })).toBe('Error: "not a url" is not a web address; give a full URL starting with https://.');
  });

  test('the fetch is injectable, and a stop during the fetch rejects with an AbortError', async () => {
    const controller = new AbortController();
    const fake: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        controller.abort();
      });
    const run = runToolCall({ id: 'f', name: 'fetchUrl', args: { url: 'https://example.org/' } }, AGENT_TOOLS, context(host({ fetch: fake }), controller.signal));
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    const served: typeof fetch = () => Promise.resolve(new Response('<title>Fake</title><p>Hi</p>', { headers: { 'content-type': 'text/html' } }));
    expect(await ok('fetchUrl', { url: 'https://example.org/x' }, context(host({ fetch: served })))).toBe('# Fake\nSource: https://example.org/x\n\nHi');
  });
});
