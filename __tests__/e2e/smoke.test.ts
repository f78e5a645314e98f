/**
 * Smoke test of the browser workbench: the real plugin bundle loads in Chromium against the
 * `obsidian` shim without errors, its commands are registered without default hotkeys, and the shim
 * behaves like Obsidian where the plugin relies on it (vault writes reach the disk, metadata,
 * frontmatter, markdown rendering with wikilinks, plugin data, the provider proxy). Screenshots in
 * both themes. It asserts only what the plugin has registered, so it passes at any stage of the view.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

let wb: Workbench;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: 'Projects/Greenhouse/Plan.md' });
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

describe('workbench smoke', () => {
  test('the real plugin bundle loads and onload runs without errors', async () => {
    const loaded = await wb.page.evaluate(() => {
      const w = (window as unknown as WorkbenchWindow).workbench;
      return {
        id: w.plugin?.manifest.id ?? null,
        extendsShimPlugin: w.plugin instanceof w.obsidian.Plugin,
        loaded: w.plugin?._loaded ?? false,
        layoutReady: w.app.workspace.layoutReady,
      };
    });
    expect(loaded).toEqual({ id: wb.pluginId, extendsShimPlugin: true, loaded: true, layoutReady: true });
    expect(await wb.errors()).toEqual([]);
  });

  test('commands are registered under the plugin id, named, without default hotkeys', async () => {
    const commands = await wb.listCommands();
    for (const c of commands) {
      expect(c.id.startsWith(`${wb.pluginId}:`)).toBe(true);
      expect(c.name.length).toBeGreaterThan(wb.pluginId.length + 2);
      expect(c.hotkeys).toEqual([]);
    }
    expect(await wb.runCommand('no-such-command')).toBe(false);
  });

  test('the chat view opens in the right sidebar when the plugin has one', async () => {
    const viewTypes = await wb.page.evaluate(() => (window as unknown as WorkbenchWindow).workbench.plugin?.viewTypes ?? []);
    const commands = (await wb.listCommands()).map((c) => c.id);
    if (viewTypes.length === 0 || !commands.includes(`${wb.pluginId}:open-chat`)) return;
    expect(await wb.runCommand('open-chat')).toBe(true);
    await wb.page.waitForSelector(`.mod-right-split .workspace-leaf:not(.is-hidden) .workspace-leaf-content[data-type="${viewTypes[0]}"]`);
    expect(await wb.errors()).toEqual([]);
  });

  test('screenshots in the light and the dark theme', async () => {
    const background = (): Promise<string> =>
      wb.page.evaluate(() => getComputedStyle(document.body).getPropertyValue('--background-primary').trim());
    expect(await background()).toBe('#ffffff');
    const light = await wb.screenshot('smoke-light');
    await wb.setTheme('dark');
    expect(await wb.page.evaluate(() => document.body.className)).toContain('theme-dark');
    expect(await background()).toBe('#1e1e1e');
    const dark = await wb.screenshot('smoke-dark');
    await wb.setNoteMode('preview');
    expect(await wb.page.locator('.workbench-preview h1').textContent()).toBe('Greenhouse plan');
    const reading = await wb.screenshot('smoke-reading-dark');
    await wb.setNoteMode('source');
    await wb.setTheme('light');
    expect(existsSync(light) && existsSync(dark) && existsSync(reading)).toBe(true);
  });

  test('the settings tab renders when the plugin adds one', async () => {
    const tabs = await wb.page.evaluate(() => (window as unknown as WorkbenchWindow).workbench.plugin?.settingTabs.length ?? 0);
    if (tabs === 0) return;
    await wb.openSettings(wb.pluginId);
    expect(await wb.page.locator('.modal.mod-settings .vertical-tab-content .setting-item').count()).toBeGreaterThan(0);
    await wb.screenshot('smoke-settings');
    await wb.closeSettings();
    expect(await wb.page.locator('.modal.mod-settings').count()).toBe(0);
  });
});

describe('obsidian shim against the vault on disk', () => {
  test('metadata cache parses frontmatter, tags, links and headings from the note text', async () => {
    const cache = await wb.page.evaluate(() => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      const file = app.vault.getFileByPath('Projects/Greenhouse/Plan.md');
      const meta = file ? app.metadataCache.getFileCache(file) : null;
      const dest = app.metadataCache.getFirstLinkpathDest('Ventilation', 'Projects/Greenhouse/Plan.md');
      return {
        frontmatter: meta?.frontmatter,
        links: meta?.links?.map((l) => l.link),
        firstHeading: meta?.headings?.[0]?.heading,
        dest: dest?.path,
        allTags: meta ? (window as unknown as WorkbenchWindow).workbench.obsidian.getAllTags(meta) : null,
      };
    });
    expect(cache.frontmatter).toEqual({ tags: ['project', 'greenhouse'], status: 'active' });
    expect(cache.links).toContain('Ventilation');
    expect(cache.firstHeading).toBe('Greenhouse plan');
    expect(cache.dest).toBe('Projects/Greenhouse/Ventilation.md');
    expect(cache.allTags).toEqual(expect.arrayContaining(['#project', '#greenhouse']));
  });

  test('vault create, process, frontmatter, rename and trash reach the disk and fire events', async () => {
    const events = await wb.page.evaluate(async () => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      const seen: string[] = [];
      const refs = ['create', 'modify', 'rename', 'delete'].map((name) =>
        app.vault.on(name, (file: unknown, old?: unknown) => seen.push(`${name}:${(file as { path: string }).path}${typeof old === 'string' ? `<-${old}` : ''}`)),
      );
      await app.vault.createFolder('Smoke/Nested');
      const file = await app.vault.create('Smoke/Nested/Note.md', 'Body line\n');
      await app.vault.process(file, (text) => `${text}Second line\n`);
      await app.fileManager.processFrontMatter(file, (fm) => {
        fm.reviewed = true;
      });
      await app.fileManager.renameFile(file, 'Smoke/Renamed.md');
      let duplicate = '';
      await app.vault.create('Smoke/Renamed.md', 'x').catch((e: unknown) => (duplicate = String(e)));
      const other = await app.vault.create('Smoke/Gone.md', 'bye');
      await app.fileManager.trashFile(other);
      refs.forEach((r) => app.vault.offref(r));
      return { seen, duplicate };
    });
    expect(events.seen).toEqual([
      'create:Smoke',
      'create:Smoke/Nested',
      'create:Smoke/Nested/Note.md',
      'modify:Smoke/Nested/Note.md',
      'modify:Smoke/Nested/Note.md',
      'rename:Smoke/Renamed.md<-Smoke/Nested/Note.md',
      'create:Smoke/Gone.md',
      'delete:Smoke/Gone.md',
    ]);
    expect(events.duplicate).toContain('already exists');
    expect(readFileSync(join(wb.vaultDir, 'Smoke/Renamed.md'), 'utf8')).toBe('---\nreviewed: true\n---\nBody line\nSecond line\n');
    expect(existsSync(join(wb.vaultDir, 'Smoke/Nested/Note.md'))).toBe(false);
    expect(existsSync(join(wb.vaultDir, 'Smoke/Gone.md'))).toBe(false);
    expect(readdirSync(join(wb.vaultDir, '.trash'))).toContain('Gone.md');
  });

  test('edits made on disk reach the app like Obsidian\'s file watcher (modify, create)', async () => {
    await wb.page.evaluate(() => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      const w = window as unknown as { smokeSeen: string[]; smokeRefs: unknown[] };
      w.smokeSeen = [];
      w.smokeRefs = ['create', 'modify'].map((name) => app.vault.on(name, (file: unknown) => w.smokeSeen.push(`${name}:${(file as { path: string }).path}`)));
    });
    await wb.writeVaultFile('Daily/2026-03-09.md', '---\nmood: sunny\n---\nEdited outside. #outside\n');
    await wb.writeVaultFile('Inbox/New idea.md', 'Fresh from disk, see [[Plan]].\n');
    const seen = await wb.page.evaluate(() => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      const edited = app.vault.getFileByPath('Daily/2026-03-09.md');
      const created = app.vault.getFileByPath('Inbox/New idea.md');
      for (const ref of (window as unknown as { smokeRefs: Parameters<typeof app.vault.offref>[0][] }).smokeRefs) app.vault.offref(ref);
      return {
        events: (window as unknown as { smokeSeen: string[] }).smokeSeen,
        frontmatter: edited ? app.metadataCache.getFileCache(edited)?.frontmatter : null,
        tags: edited ? app.metadataCache.getFileCache(edited)?.tags?.map((t) => t.tag) : null,
        link: created ? app.metadataCache.getFileCache(created)?.links?.[0]?.link : null,
        inTree: app.vault.getFolderByPath('Inbox')?.children.map((c) => c.path),
      };
    });
    expect(seen).toEqual({
      events: ['modify:Daily/2026-03-09.md', 'create:Inbox', 'create:Inbox/New idea.md'],
      frontmatter: { mood: 'sunny' },
      tags: ['#outside'],
      link: 'Plan',
      inTree: ['Inbox/New idea.md'],
    });
  });

  test('MarkdownRenderer renders markdown for real; a wikilink opens the note', async () => {
    const rendered = await wb.page.evaluate(async () => {
      const { app, obsidian } = (window as unknown as WorkbenchWindow).workbench;
      const el = document.body.createDiv({ cls: 'markdown-rendered smoke-render' });
      const component = new obsidian.Component();
      await obsidian.MarkdownRenderer.render(app, '**Bold** and [[Seedlings|the seedlings]]\n\n```js\nlet x = 1;\n```\n\n<script>window.pwned = 1</script>', el, '', component);
      return {
        strong: el.querySelector('strong')?.textContent,
        link: el.querySelector('a.internal-link')?.getAttribute('data-href'),
        linkText: el.querySelector('a.internal-link')?.textContent,
        code: el.querySelector('pre code.language-js')?.textContent,
        scripts: el.querySelectorAll('script').length,
      };
    });
    expect(rendered).toEqual({ strong: 'Bold', link: 'Seedlings', linkText: 'the seedlings', code: 'let x = 1;\n', scripts: 0 });
    await wb.page.click('.smoke-render a.internal-link');
    await wb.page.waitForFunction(() => (window as unknown as WorkbenchWindow).workbench.app.workspace.getActiveFile()?.path === 'Projects/Greenhouse/Seedlings.md');
    await wb.page.evaluate(() => document.querySelector('.smoke-render')?.remove());
  });

  test('the editor selection is what Editor.getSelection returns', async () => {
    await wb.openNote('Projects/Greenhouse/Plan.md');
    await wb.selectText('polycarbonate greenhouse');
    const sel = await wb.page.evaluate(() => {
      const editor = (window as unknown as WorkbenchWindow).workbench.app.workspace.activeEditor?.editor;
      return editor ? { text: editor.getSelection(), from: editor.getCursor('from'), to: editor.getCursor('to') } : null;
    });
    expect(sel).toEqual({ text: 'polycarbonate greenhouse', from: { line: 6, ch: 28 }, to: { line: 6, ch: 52 } });
  });

  test('plugin data and secrets: saveData writes data.json, secrets stay out of the vault', async () => {
    await wb.page.evaluate(async () => {
      const { plugin, app } = (window as unknown as WorkbenchWindow).workbench;
      if (!plugin) throw new Error('no plugin');
      const data = ((await plugin.loadData()) ?? {}) as Record<string, unknown>;
      await plugin.saveData({ ...data, smokeMarker: 42 });
      app.secretStorage.setSecret('smoke-secret', 'do-not-write-me');
    });
    await wb.flush();
    expect((JSON.parse(readFileSync(wb.dataJsonPath, 'utf8')) as { smokeMarker?: number }).smokeMarker).toBe(42);
    const everything = readdirSync(wb.vaultDir, { recursive: true, encoding: 'utf8' })
      .map((p) => join(wb.vaultDir, p))
      .filter((p) => p.endsWith('.md') || p.endsWith('.json'))
      .map((p) => readFileSync(p, 'utf8'))
      .join('\n');
    expect(everything).not.toContain('do-not-write-me');
  });

  test('the provider server answers through the same-origin proxy', async () => {
    const before = wb.providerServer.requests.length;
    const reply = await wb.page.evaluate(async () => {
      const res = await fetch('/provider/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-workbench-local' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello from the smoke test' }] }),
      });
      return { status: res.status, body: (await res.json()) as { choices?: { message?: { content?: string } }[] } };
    });
    expect(reply.status).toBe(200);
    expect(typeof reply.body.choices?.[0]?.message?.content).toBe('string');
    expect(wb.providerServer.requests.length).toBe(before + 1);
  });
});

describe('plugin unload', () => {
  test('unload releases commands, views and every event handler the plugin registered', async () => {
    const result = await wb.page.evaluate(async () => {
      const w = (window as unknown as WorkbenchWindow).workbench;
      const plugin = w.plugin;
      if (!plugin) throw new Error('no plugin');
      plugin.unload();
      // Detaching a leaf closes its view asynchronously (onClose is async), as in Obsidian.
      await new Promise((resolve) => window.setTimeout(resolve, 0));
      const leftover = plugin.viewTypes.flatMap((t) => w.app.workspace.getLeavesOfType(t));
      return { commands: w.listCommands().length, leaves: leftover.length, before: w.handlersBeforeLoad, after: w.handlerCounts() };
    });
    expect(result.commands).toBe(0);
    expect(result.leaves).toBe(0);
    expect(result.after).toEqual(result.before);
    expect(await wb.errors()).toEqual([]);
  });
});
