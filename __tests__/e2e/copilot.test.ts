/**
 * What Copilot users expect, in the browser: custom prompts from a folder of notes (the `/` picker
 * in the composer and a "Run prompt" command each, kept current as the notes change), a reply's ⋯
 * menu (insert at the cursor, replace the selection, copy to a new note) acting on the note the
 * user last edited, and "Add to Strata chat" in the editor's and the file explorer's context menus.
 * Screenshots of the picker and the menu at 300 px and wide, light and dark.
 */
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench, type WorkbenchWindow } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const TEXTAREA = '.strata-composer textarea';
const PICKER = '.strata-slash-suggest';
const PROMPTS = 'Strata/Prompts';

let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN, viewport: { width: 1200, height: 800 } });
  page = wb.page;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const narrow = (on: boolean) => wb.narrowSidebar(on);

const shoot = (name: string) => wb.screenshotThemes(name);

const commandIds = async () => (await wb.listCommands()).map((c) => c.id).filter((id) => id.includes('run-prompt'));
async function waitForCommands(ids: string[]): Promise<void> {
  await page.waitForFunction(
    (want) => {
      const have = (window as unknown as WorkbenchWindow).workbench.listCommands().map((c) => c.id).filter((id) => id.includes('run-prompt')).sort();
      return JSON.stringify(have) === JSON.stringify([...want].sort());
    },
    ids.map((id) => `strata:${id}`),
  );
}

const pickerNames = () => page.$$eval(`${PICKER} .strata-slash-item`, (els) => els.map((e) => e.getAttribute('data-prompt') ?? ''));
const selectedName = () => page.getAttribute(`${PICKER} .strata-slash-item.is-selected`, 'data-prompt');
async function typeInComposer(text: string): Promise<void> {
  await page.fill(TEXTAREA, '');
  await page.click(TEXTAREA);
  await page.locator(TEXTAREA).pressSequentially(text);
}
/** The note pane's text as the editor holds it. */
const noteText = () => page.inputValue('.workspace-leaf-content[data-type="markdown"] textarea.workbench-editor');
const lastNotice = async () => (await wb.notices()).at(-1) ?? '';

describe('custom prompts', () => {
  test('prompt notes become prompts and commands as they are written', async () => {
    expect(await wb.runCommand('open-chat')).toBe(true);
    await page.waitForSelector('.strata-chip.is-active-note');
    expect(await commandIds()).toEqual([]);
    await wb.writeVaultFile(`${PROMPTS}/Summarize.md`, '---\ndescription: Three bullet points from the selected text\n---\nSummarize in three bullet points:\n\n{selection}\n');
    await wb.writeVaultFile(`${PROMPTS}/Explain note.md`, '---\ndescription: Explain the open note to a newcomer\n---\nExplain {activeNote} to someone new to it.\n');
    await wb.writeVaultFile(`${PROMPTS}/Translate.md`, 'Translate into {input}:\n\n{selection}\n');
    await wb.writeVaultFile(`${PROMPTS}/Fix grammar.md`, 'Fix the grammar of the text I paste below.\n');
    await wb.writeVaultFile(`${PROMPTS}/Broken.md`, '---\ndescription: "never closed\n---\nText\n');
    await waitForCommands(['run-prompt-explain-note', 'run-prompt-fix-grammar', 'run-prompt-summarize', 'run-prompt-translate']);
    const commands = (await wb.listCommands()).filter((c) => c.id.includes('run-prompt'));
    expect(commands.map((c) => c.name).sort()).toEqual(['Strata: Run prompt: Explain note', 'Strata: Run prompt: Fix grammar', 'Strata: Run prompt: Summarize', 'Strata: Run prompt: Translate']);
    expect(commands.every((c) => c.hotkeys.length === 0)).toBe(true);
  });

  test('/ lists the prompts with their descriptions, and says why a broken note is missing', async () => {
    await typeInComposer('/');
    await page.waitForSelector(`${PICKER} .strata-slash-item`);
    expect(await pickerNames()).toEqual(['Explain note', 'Fix grammar', 'Summarize', 'Translate']);
    expect(await page.textContent(`${PICKER} .strata-slash-item[data-prompt="Summarize"] .strata-slash-description`)).toBe('Three bullet points from the selected text');
    expect(await page.textContent(`${PICKER} .strata-slash-problem`)).toMatch(/^Broken cannot be used: the frontmatter is not valid YAML/);
    await shoot('slash-picker-wide');
    await narrow(true);
    await shoot('slash-picker-300');
    // Nothing in the picker is wider than the sidebar.
    const overflow = await page.$eval(PICKER, (el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await narrow(false);
  });

  test('the keyboard: arrows move, Escape closes, Enter on no match closes and sends nothing', async () => {
    expect(await selectedName()).toBe('Explain note');
    await page.press(TEXTAREA, 'ArrowDown');
    expect(await selectedName()).toBe('Fix grammar');
    await page.press(TEXTAREA, 'ArrowUp');
    await page.press(TEXTAREA, 'ArrowUp'); // wraps to the bottom
    expect(await selectedName()).toBe('Translate');
    await page.press(TEXTAREA, 'Escape');
    await page.waitForSelector(PICKER, { state: 'hidden' });
    expect(await page.inputValue(TEXTAREA)).toBe('/');

    const before = wb.providerServer.requests.length;
    await typeInComposer('/zzzz');
    await page.waitForSelector(`${PICKER} .strata-suggest-empty`);
    expect(await page.textContent(`${PICKER} .strata-suggest-empty`)).toBe('No matching prompts');
    await page.press(TEXTAREA, 'Enter');
    await page.waitForSelector(PICKER, { state: 'hidden' });
    expect(await page.inputValue(TEXTAREA)).toBe('/zzzz');
    expect(wb.providerServer.requests.length).toBe(before);
    expect(await page.$$('.strata-message')).toHaveLength(0);
  });

  test('a prompt that needs a selection says so when there is none, and keeps the text', async () => {
    await typeInComposer('/summ');
    await page.waitForSelector(`${PICKER} .strata-slash-item.is-selected[data-prompt="Summarize"]`);
    await page.press(TEXTAREA, 'Enter');
    expect(await lastNotice()).toBe('The prompt "Summarize" uses {selection}: select text in a note, then run it again.');
    expect(await page.inputValue(TEXTAREA)).toBe('/summ');
    await page.press(TEXTAREA, 'Escape');
  });

  test("picking puts the prompt, filled in with the editor's selection, in the composer to review; nothing is sent", async () => {
    await wb.selectText('Keep the night temperature');
    const before = wb.providerServer.requests.length;
    await typeInComposer('/sum');
    await page.waitForSelector(`${PICKER} .strata-slash-item.is-selected[data-prompt="Summarize"]`);
    await page.press(TEXTAREA, 'Tab');
    await page.waitForSelector(PICKER, { state: 'hidden' });
    expect(await page.inputValue(TEXTAREA)).toBe('Summarize in three bullet points:\n\nKeep the night temperature');
    expect(wb.providerServer.requests.length).toBe(before);
  });

  test('{activeNote} names the note in the message and attaches it', async () => {
    // The active note left out first: the prompt attaches it again.
    await page.click('.strata-chip.is-active-note .strata-chip-toggle');
    await page.waitForSelector('.strata-chip.is-active-note.is-off');
    await typeInComposer('/expl');
    await page.waitForSelector(`${PICKER} .strata-slash-item.is-selected[data-prompt="Explain note"]`);
    await page.click(`${PICKER} .strata-slash-item[data-prompt="Explain note"]`);
    expect(await page.inputValue(TEXTAREA)).toBe('Explain [[Plan]] to someone new to it.');
    await page.waitForSelector('.strata-chip.is-active-note:not(.is-off)');
  });

  test('words typed after the name fill {input}; with none, the caret waits where they go', async () => {
    await typeInComposer('/Translate German');
    await page.waitForSelector(`${PICKER} .strata-slash-item[data-prompt="Translate"]`);
    expect(await page.textContent(`${PICKER} .strata-slash-item.is-selected .strata-slash-description`)).toBe('Runs with "German"');
    await page.press(TEXTAREA, 'Enter');
    expect(await page.inputValue(TEXTAREA)).toBe('Translate into German:\n\nKeep the night temperature');

    await typeInComposer('/transl');
    await page.press(TEXTAREA, 'Enter');
    expect(await page.inputValue(TEXTAREA)).toBe('Translate into :\n\nKeep the night temperature');
    expect(await page.$eval(TEXTAREA, (el) => (el as HTMLTextAreaElement).selectionStart)).toBe('Translate into '.length);
    await page.keyboard.type('French');
    expect(await page.inputValue(TEXTAREA)).toBe('Translate into French:\n\nKeep the night temperature');
  });

  test('an @ mention typed after the name is attached and becomes the input', async () => {
    await typeInComposer('/Translate @vent');
    await page.waitForSelector('.strata-suggest-item.is-selected[data-chip="note:Projects/Greenhouse/Ventilation.md"]');
    expect(await page.isVisible(PICKER)).toBe(false);
    await page.press(TEXTAREA, 'Enter');
    await page.waitForSelector('.strata-composer .strata-chip[data-chip="note:Projects/Greenhouse/Ventilation.md"]');
    expect(await page.textContent(`${PICKER} .strata-slash-item.is-selected .strata-slash-description`)).toBe('Runs with "[[Ventilation]]"');
    await page.press(TEXTAREA, 'Enter');
    expect(await page.inputValue(TEXTAREA)).toBe('Translate into [[Ventilation]]:\n\nKeep the night temperature');
    await page.click('.strata-composer .strata-chip[data-chip="note:Projects/Greenhouse/Ventilation.md"] .strata-chip-remove');
    await typeInComposer('/transl');
    await page.press(TEXTAREA, 'Enter');
    await page.keyboard.type('French');
  });

  test('the filled-in prompt is sent like any message', async () => {
    await page.press(TEXTAREA, 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length === 1);
    expect(JSON.stringify(wb.providerServer.requests.at(-1)?.body ?? {})).toContain('Translate into French:');
  });

  test('"Run prompt" commands fill the prompt in from the editor and put it in the composer after any draft', async () => {
    await page.fill(TEXTAREA, 'My draft');
    await wb.selectText('Keep the night temperature');
    expect(await wb.runCommand('run-prompt-summarize')).toBe(true);
    await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLTextAreaElement).value.includes('Summarize'), TEXTAREA);
    expect(await page.inputValue(TEXTAREA)).toBe('My draft\n\nSummarize in three bullet points:\n\nKeep the night temperature');
    await page.fill(TEXTAREA, '');
    // No selection: the command says what is missing and leaves the composer alone.
    await wb.openNote(PLAN);
    await page.evaluate(() => {
      const ta = document.querySelector('.workspace-leaf-content[data-type="markdown"] textarea.workbench-editor') as HTMLTextAreaElement;
      ta.focus();
      ta.setSelectionRange(0, 0);
    });
    expect(await wb.runCommand('run-prompt-summarize')).toBe(true);
    await page.waitForFunction(() => (window as unknown as WorkbenchWindow).workbench.notices.at(-1)?.startsWith('The prompt "Summarize"') ?? false);
    expect(await page.inputValue(TEXTAREA)).toBe('');
  });

  test('renaming, fixing and deleting prompt notes updates the picker and the commands at once', async () => {
    await page.evaluate(async (folder) => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      const fix = app.vault.getFileByPath(`${folder}/Fix grammar.md`);
      const broken = app.vault.getFileByPath(`${folder}/Broken.md`);
      if (!fix || !broken) throw new Error('missing prompt notes');
      await app.fileManager.renameFile(fix, `${folder}/Proofread.md`);
      await app.vault.modify(broken, '---\ndescription: fixed now\n---\nText\n');
      const translate = app.vault.getFileByPath(`${folder}/Translate.md`);
      if (translate) await app.fileManager.trashFile(translate);
    }, PROMPTS);
    await waitForCommands(['run-prompt-broken', 'run-prompt-explain-note', 'run-prompt-proofread', 'run-prompt-summarize']);
    await typeInComposer('/');
    await page.waitForSelector(`${PICKER} .strata-slash-item`);
    expect(await pickerNames()).toEqual(['Broken', 'Explain note', 'Proofread', 'Summarize']);
    expect(await page.$(`${PICKER} .strata-slash-problem`)).toBeNull();
    await page.press(TEXTAREA, 'Escape');
    await page.fill(TEXTAREA, '');
  });
});

describe("a reply's menu", () => {
  const MORE = '.strata-message.is-assistant:not(.is-failed) .strata-reply-more';
  const menuItems = () =>
    page.$$eval('.menu .menu-item', (els) => els.map((e) => `${e.textContent ?? ''}${e.classList.contains('is-disabled') ? ' (disabled)' : ''}${e.classList.contains('is-label') ? ' (label)' : ''}`));
  /** The last reply's markdown, as the chat holds it. */
  const reply = () =>
    page.evaluate(() => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      const view = app.workspace.getLeavesOfType('strata-chat')[0].view as unknown as { controller: { state: { answered: { reply?: string }[] } } };
      return view.controller.state.answered.at(-1)?.reply ?? '';
    });

  async function openMenu(): Promise<void> {
    await page.hover('.strata-message.is-assistant:not(.is-failed)');
    await page.click(MORE);
    await page.waitForSelector('.menu .menu-item');
  }
  async function pick(title: string): Promise<void> {
    await page.click(`.menu .menu-item:has-text("${title}")`);
    await page.waitForSelector('.menu', { state: 'detached' });
  }

  test('with the cursor in a note: insert is offered, replace is disabled and says why', async () => {
    await wb.openNote(PLAN);
    await page.evaluate(() => {
      const ta = document.querySelector('.workspace-leaf-content[data-type="markdown"] textarea.workbench-editor') as HTMLTextAreaElement;
      ta.focus();
      ta.setSelectionRange(0, 0);
    });
    await openMenu();
    expect(await menuItems()).toEqual(['Insert at cursor', 'Replace selection (disabled)', 'Select text in Plan first. (label)', 'Apply to note…', 'Copy to new note']);
    await shoot('reply-menu-wide');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.menu', { state: 'detached' });
    await narrow(true);
    await openMenu();
    // The menu stays inside the window.
    const box = await page.$eval('.menu', (el) => {
      const r = el.getBoundingClientRect();
      return { right: r.right, bottom: r.bottom, width: window.innerWidth, height: window.innerHeight };
    });
    expect(box.right).toBeLessThanOrEqual(box.width);
    expect(box.bottom).toBeLessThanOrEqual(box.height);
    await shoot('reply-menu-300');
    await page.keyboard.press('Escape');
    await narrow(false);
  });

  test('"Insert at cursor" puts the reply at the cursor of the note last edited, and goes back to it', async () => {
    const text = await reply();
    const before = await noteText();
    const at = before.indexOf('Keep the night temperature');
    await page.evaluate((offset) => {
      const ta = document.querySelector('.workspace-leaf-content[data-type="markdown"] textarea.workbench-editor') as HTMLTextAreaElement;
      ta.focus();
      ta.setSelectionRange(offset, offset);
    }, at);
    await page.click(TEXTAREA); // the chat is the active leaf when the menu runs
    await openMenu();
    await pick('Insert at cursor');
    expect(await noteText()).toBe(before.slice(0, at) + text + before.slice(at));
    expect(await page.evaluate(() => document.activeElement?.classList.contains('workbench-editor') ?? false)).toBe(true);
    expect(await wb.readVaultFile(PLAN)).toBe(before.slice(0, at) + text + before.slice(at));
  });

  test('"Replace selection" replaces the selected text, with the keyboard', async () => {
    const text = await reply();
    await wb.selectText('Keep the night temperature');
    const before = await noteText();
    await page.click(TEXTAREA);
    await openMenu();
    expect(await menuItems()).toEqual(['Insert at cursor', 'Replace selection', 'Apply to note…', 'Copy to new note']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.menu', { state: 'detached' });
    expect(await noteText()).toBe(before.replace('Keep the night temperature', text));
  });

  test('"Copy to new note" makes a note named after the chat, a new name each time, and opens it', async () => {
    const text = await reply();
    await page.click('.strata-title');
    await page.fill('.strata-title-input', 'Greenhouse: night / day?');
    await page.press('.strata-title-input', 'Enter');
    await openMenu();
    await pick('Copy to new note');
    await page.waitForFunction(() => (window as unknown as WorkbenchWindow).workbench.app.workspace.getActiveFile()?.path === 'Greenhouse night day.md');
    expect(await wb.readVaultFile('Greenhouse night day.md')).toBe(`${text}\n`);
    // It opens in a new tab beside the note pane, as Obsidian's getLeaf('tab') does.
    const editors = () => page.$$eval('.workspace-leaf-content[data-type="markdown"] textarea.workbench-editor', (els) => els.map((e) => (e as HTMLTextAreaElement).value));
    expect((await editors()).at(-1)).toBe(`${text}\n`);
    await openMenu();
    await pick('Copy to new note');
    await page.waitForFunction(() => (window as unknown as WorkbenchWindow).workbench.app.workspace.getActiveFile()?.path === 'Greenhouse night day 1.md');
    // The tabs it opened close again: the note pane is what the next tests use.
    await page.evaluate(() => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      const main = app.workspace.getLeaf(false);
      for (const leaf of app.workspace.getLeavesOfType('markdown')) if (leaf !== main) leaf.detach();
    });
  });

  test('with no note open, the editor actions are disabled and say why', async () => {
    await page.evaluate(async () => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      await app.workspace.getLeaf(false).setViewState({ type: 'empty' });
    });
    await openMenu();
    expect(await menuItems()).toEqual(['Insert at cursor (disabled)', 'Replace selection (disabled)', 'Open a note in the editor first. (label)', 'Apply to note…', 'Copy to new note']);
    await shoot('reply-menu-no-note-wide');
    // A disabled item does nothing.
    await page.click('.menu .menu-item:has-text("Insert at cursor")');
    expect(await page.$('.menu')).not.toBeNull();
    await page.keyboard.press('Escape');
    await wb.openNote(PLAN);
  });
});

describe('"Add to Strata chat" in context menus', () => {
  const chipKeys = () => page.$$eval('.strata-composer .strata-chip:not(.is-active-note)', (els) => els.map((e) => e.getAttribute('data-chip') ?? ''));
  async function clearChips(): Promise<void> {
    for (;;) {
      const remove = await page.$('.strata-composer .strata-chip:not(.is-active-note) .strata-chip-remove');
      if (!remove) return;
      await remove.click();
    }
  }
  const menuTitles = () => page.$$eval('.menu .menu-item', (els) => els.map((e) => e.textContent ?? ''));

  test("the editor's menu adds the selection when there is one, else the note", async () => {
    await clearChips();
    await wb.openNote('Projects/Greenhouse/Ventilation.md');
    await wb.selectText('Ventilation');
    // A right-click on the selected words (a mouse-down elsewhere would move the cursor first).
    await page.$eval('textarea.workbench-editor', (ta) => {
      const box = ta.getBoundingClientRect();
      ta.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, button: 2, clientX: box.left + 40, clientY: box.top + 20 }));
    });
    await page.waitForSelector('.menu');
    expect(await menuTitles()).toEqual(['Add selection to Strata chat', 'Edit with Strata…']);
    await page.click('.menu .menu-item');
    await page.waitForSelector('.strata-composer .strata-chip.is-selection');
    expect(await chipKeys()).toEqual([expect.stringMatching(/^selection:Projects\/Greenhouse\/Ventilation\.md#\d+-\d+$/)]);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('strata-input') ?? false)).toBe(true);

    await clearChips();
    await wb.openNote(PLAN);
    await page.click('.strata-chip.is-active-note .strata-chip-toggle');
    await page.waitForSelector('.strata-chip.is-active-note.is-off');
    await page.click('textarea.workbench-editor', { button: 'right' });
    await page.waitForSelector('.menu');
    expect(await menuTitles()).toEqual(['Add note to Strata chat']);
    await page.click('.menu .menu-item');
    await page.waitForSelector('.strata-chip.is-active-note:not(.is-off)');
  });

  test("the file explorer's menu adds a note, a folder, or several selected items", async () => {
    await clearChips();
    await page.click('.nav-folder-title[data-path="Projects/Greenhouse"]', { button: 'right' });
    await page.waitForSelector('.menu');
    expect(await menuTitles()).toEqual(['Add to Strata chat']);
    await page.click('.menu .menu-item');
    await page.waitForSelector('.strata-composer .strata-chip.is-folder');
    await page.click('.nav-file-title[data-path="Daily/2026-03-02.md"]', { button: 'right' });
    await page.click('.menu .menu-item:has-text("Add to Strata chat")');
    await page.waitForFunction(() => document.querySelectorAll('.strata-composer .strata-chip:not(.is-active-note)').length === 2);
    expect(await chipKeys()).toEqual(['folder:Projects/Greenhouse', 'note:Daily/2026-03-02.md']);

    await clearChips();
    const mod = process.platform === 'darwin' ? 'Meta' : 'Control';
    await page.click('.nav-file-title[data-path="Daily/2026-03-09.md"]', { modifiers: [mod] });
    await page.click('.nav-file-title[data-path="Notes/Ideas.md"]', { modifiers: [mod] });
    await page.click('.nav-file-title[data-path="Notes/Ideas.md"]', { button: 'right' });
    await page.waitForSelector('.menu');
    expect(await menuTitles()).toEqual(['Add 2 items to Strata chat']);
    await page.click('.menu .menu-item');
    await page.waitForFunction(() => document.querySelectorAll('.strata-composer .strata-chip:not(.is-active-note)').length === 2);
    expect(await chipKeys()).toEqual(['note:Daily/2026-03-09.md', 'note:Notes/Ideas.md']);
  });

  test('chat notes and non-notes are not offered', async () => {
    await wb.flush();
    const chat = await page.evaluate(() => {
      const { app } = (window as unknown as WorkbenchWindow).workbench;
      return app.vault.getMarkdownFiles().find((f) => f.path.startsWith('Strata/Chats/'))?.path ?? null;
    });
    expect(chat).not.toBeNull();
    await page.click(`.nav-file-title[data-path="${chat}"]`, { button: 'right' });
    expect(await page.$('.menu')).toBeNull();
    expect(await wb.errors()).toEqual([]);
  });
});

test('prompts already in the folder when Obsidian starts have their commands and / entries', async () => {
  await wb.reload();
  await waitForCommands(['run-prompt-broken', 'run-prompt-explain-note', 'run-prompt-proofread', 'run-prompt-summarize']);
  expect(await wb.runCommand('open-chat')).toBe(true);
  await typeInComposer('/');
  await page.waitForSelector(`${PICKER} .strata-slash-item`);
  expect(await pickerNames()).toEqual(['Broken', 'Explain note', 'Proofread', 'Summarize']);
  await page.press(TEXTAREA, 'Escape');

  // A chat note open in the editor is not the active note a prompt names.
  const chat = await page.evaluate(() => {
    const { app } = (window as unknown as WorkbenchWindow).workbench;
    return app.vault.getMarkdownFiles().find((f) => f.path.startsWith('Strata/Chats/'))?.path ?? '';
  });
  await wb.openNote(chat);
  expect(await wb.runCommand('run-prompt-explain-note')).toBe(true);
  await page.waitForFunction(() => (window as unknown as WorkbenchWindow).workbench.notices.at(-1)?.startsWith('The prompt "Explain note"') ?? false);
  expect(await lastNotice()).toBe('The prompt "Explain note" uses {activeNote}: open a note, then run it again.');
  expect(await wb.errors()).toEqual([]);
});
