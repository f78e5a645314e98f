/**
 * Projects in the browser (issue 14): the real plugin bundle in Chromium with two projects in its
 * data.json. The header's project picker ("No project" first) puts the chat in a project: its
 * default model and notes join the empty chat; the request's system message carries the project
 * prompt; the chat note lands in the project's Chats folder and is listed in history. A new chat
 * started from there belongs to the project too. Switching project in a chat with answers is a
 * named cache break, said under the reply. Screenshots of the header at 300 px and wide, light and
 * dark; at 300 px nothing in the header overflows.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startWorkbench, type Workbench } from './harness';

const VENT = 'Projects/Greenhouse/Ventilation.md';
const GREENHOUSE_PROMPT = 'You keep the greenhouse log: name the log dates you rely on.';
const PIANO_PROMPT = 'You are the piano teacher: name the lesson numbers.';
const PROJECT_CHATS = 'Projects/Greenhouse/Chats';

let wb: Workbench;
let page: Page;

beforeAll(async () => {
  wb = await startWorkbench({
    theme: 'light',
    openNote: 'Notes/Ideas.md',
    viewport: { width: 1200, height: 800 },
    settings: {
      generateTitles: false,
      projects: [
        { id: 'greenhouse', name: 'Greenhouse', folder: 'Projects/Greenhouse', prompt: GREENHOUSE_PROMPT, notes: [VENT], provider: 'local-openai', model: 'gpt-4o-mini' },
        { id: 'piano', name: 'Piano lessons', folder: 'Piano Lessons', prompt: PIANO_PROMPT, notes: [] },
        { id: 'long', name: 'Household renovation and garden planning for the spring of 2026', folder: 'Notes', prompt: '', notes: [] },
      ],
    },
  });
  page = wb.page;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

type Wire = { role: string; content: string };
const chatRequests = () => wb.providerServer.requests.filter((r) => r.path.includes('chat/completions')).map((r) => (r.body as { messages: Wire[] }).messages);
const chipTexts = () => page.$$eval('.strata-composer .strata-chip', (els) => els.map((e) => (e.textContent ?? '').trim()));
const projectValue = () => page.$eval('select.strata-project-picker', (el) => (el as HTMLSelectElement).value);
const modelValue = () => page.$eval('select.strata-model-picker', (el) => (el as HTMLSelectElement).value);
const answered = () => page.$$eval('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)', (els) => els.length);

async function send(text: string): Promise<void> {
  const before = await answered();
  await page.fill('.strata-composer textarea', text);
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length > n, before);
}

/** Nothing in the header reaches past its right edge (or is cut by it). */
async function headerOverflow(): Promise<string[]> {
  return page.$eval('.strata-header', (header) => {
    const right = header.getBoundingClientRect().right;
    const out: string[] = [];
    if (header.scrollWidth > header.clientWidth + 1) out.push(`header scrolls: ${header.scrollWidth} > ${header.clientWidth}`);
    for (const el of Array.from(header.querySelectorAll('select, button, .strata-title'))) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > right + 0.5) out.push(`${el.className} ends at ${box.right} > ${right}`);
    }
    return out;
  });
}

test('the header offers the projects, "No project" first; picking one gives the empty chat its model and notes', async () => {
  expect(await wb.runCommand('open-chat')).toBe(true);
  await page.waitForSelector('.strata-composer textarea');
  const options = await page.$$eval('select.strata-project-picker option', (els) => els.map((e) => [(e as HTMLOptionElement).value, e.textContent]));
  expect(options).toEqual([
    ['', 'No project'],
    ['greenhouse', 'Greenhouse'],
    ['piano', 'Piano lessons'],
    ['long', 'Household renovation and garden planning for the spring of 2026'],
  ]);
  expect(await projectValue()).toBe('');
  expect(await modelValue()).toBe('local-openai::gpt-4o');
  expect(await chipTexts()).toEqual([expect.stringContaining('Ideas')]);

  await page.selectOption('select.strata-project-picker', 'greenhouse');
  await page.waitForFunction(() => document.querySelectorAll('.strata-composer .strata-chip').length === 2);
  expect(await modelValue()).toBe('local-openai::gpt-4o-mini');
  expect(await chipTexts()).toEqual([expect.stringContaining('Ideas'), expect.stringContaining('Ventilation')]);

  for (const width of ['wide', '300']) {
    await wb.narrowSidebar(width === '300');
    expect(await headerOverflow()).toEqual([]);
    await wb.screenshotThemes(`projects-header-${width}`, { selector: '.workspace-leaf-content[data-type="strata-chat"] .strata-header' });
    await wb.screenshotThemes(`projects-chat-${width}`);
  }
  // A long name is cut inside its picker, never past the header's edge.
  await page.selectOption('select.strata-project-picker', 'long');
  expect(await headerOverflow()).toEqual([]);
  await wb.screenshotThemes('projects-header-long-300', { selector: '.workspace-leaf-content[data-type="strata-chat"] .strata-header' });
  await page.selectOption('select.strata-project-picker', 'greenhouse');
  await page.waitForFunction(() => document.querySelectorAll('.strata-composer .strata-chip').length === 2);
  await wb.narrowSidebar(false);
});

test('sent in the project: the system message has the project prompt, the note lands in the Chats folder, history lists it', async () => {
  await send('What do the notes say about vents?');
  const request = chatRequests().at(-1)!;
  const system = request.find((m) => m.role === 'system')?.content ?? '';
  expect(system).toContain(`## Project\n${GREENHOUSE_PROMPT}`);
  expect(system).not.toContain(PIANO_PROMPT);
  // The project's default note went with the message.
  expect(JSON.stringify(request.at(-1))).toContain('Ventilation');

  await wb.flush();
  const dir = join(wb.vaultDir, PROJECT_CHATS);
  const notes = readdirSync(dir).filter((f) => f.endsWith('.md'));
  expect(notes).toHaveLength(1);
  const text = readFileSync(join(dir, notes[0]), 'utf8');
  expect(text).toMatch(/\n {2}project: greenhouse\n/);
  // Nothing went to the chat folder.
  expect(existsSync(join(wb.vaultDir, 'Strata/Chats')) ? readdirSync(join(wb.vaultDir, 'Strata/Chats')) : []).toEqual([]);

  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  const titles = await page.$$eval('.strata-history-item', (els) => els.map((e) => e.textContent ?? ''));
  expect(titles).toHaveLength(1);
  expect(titles[0]).toContain('What do the notes say about vents');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.strata-history-modal', { state: 'detached' });
});

test('a new chat started there belongs to the project, with its notes; "No project" takes them away', async () => {
  await page.click('.strata-new-chat');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message').length === 0);
  expect(await projectValue()).toBe('greenhouse');
  expect(await modelValue()).toBe('local-openai::gpt-4o-mini');
  await page.waitForFunction(() => document.querySelectorAll('.strata-composer .strata-chip').length === 2);
  expect(await chipTexts()).toEqual([expect.stringContaining('Ideas'), expect.stringContaining('Ventilation')]);

  await page.selectOption('select.strata-project-picker', '');
  await page.waitForFunction(() => document.querySelectorAll('.strata-composer .strata-chip').length === 1);
  expect(await modelValue()).toBe('local-openai::gpt-4o');
});

test('switching project in a chat with answers: the next reply says the cache restarted because of it', async () => {
  // Back to the project's chat.
  await page.click('.strata-history-button');
  await page.waitForSelector('.strata-history-item');
  await page.click('.strata-history-item .strata-history-main');
  await page.waitForFunction(() => document.querySelectorAll('.strata-message.is-assistant').length === 1);
  expect(await projectValue()).toBe('greenhouse');

  await page.selectOption('select.strata-project-picker', 'piano');
  await send('And the lessons?');
  const system = chatRequests().at(-1)!.find((m) => m.role === 'system')?.content ?? '';
  expect(system).toContain(PIANO_PROMPT);
  expect(system).not.toContain(GREENHOUSE_PROMPT);
  const note = page.locator('.strata-message.is-assistant').last().locator('.strata-prefix-change');
  await note.waitFor();
  expect(await note.locator('.strata-prefix-change-text').textContent()).toBe(
    "The provider's cache restarts because you moved the chat from project Greenhouse to project Piano lessons, so its project instructions changed",
  );
  expect(await note.getAttribute('title')).toContain('Prefix break (project-switch)');
  await wb.flush();
  // The note stays where it was saved; it now says its project is the piano's.
  const notes = readdirSync(join(wb.vaultDir, PROJECT_CHATS)).filter((f) => f.endsWith('.md'));
  expect(notes).toHaveLength(1);
  expect(readFileSync(join(wb.vaultDir, PROJECT_CHATS, notes[0]), 'utf8')).toMatch(/\n {2}project: piano\n/);
  await note.scrollIntoViewIfNeeded();
  await wb.narrowSidebar(true);
  await wb.screenshotThemes('projects-switch-300');
  await wb.narrowSidebar(false);
  expect(await wb.errors()).toEqual([]);
});

/** data.json as saved (after every write the page started). */
async function savedProjects(): Promise<Array<Record<string, unknown>>> {
  await wb.flush();
  return (JSON.parse(readFileSync(wb.dataJsonPath, 'utf8')) as { projects: Array<Record<string, unknown>> }).projects;
}

test('the settings tab: each project in a line that opens to edit it; the folder has a folder suggest; add and remove', async () => {
  await wb.openSettings('strata');
  await page.waitForSelector('.strata-settings-project');
  const summaries = await page.$$eval('.strata-project-summary', (els) => els.map((e) => e.textContent));
  expect(summaries).toEqual([
    'GreenhouseProjects/Greenhouse · 1 note · gpt-4o-mini',
    'Piano lessonsPiano Lessons · 0 notes',
    'Household renovation and garden planning for the spring of 2026Notes · 0 notes',
  ]);
  const piano = page.locator('.strata-settings-project[data-project="piano"]');
  await piano.locator('summary').click();
  const folder = piano.locator('input.strata-project-folder');
  await folder.fill('');
  await folder.pressSequentially('Green');
  await page.waitForSelector('.suggestion-container .suggestion-item');
  const suggested = await page.$$eval('.suggestion-container .suggestion-item', (els) => els.map((e) => e.textContent));
  // Shortest first: the folder itself, then its subfolders (its Chats folder, once a chat was saved).
  expect(suggested[0]).toBe('Projects/Greenhouse');
  expect(suggested.every((f) => f?.startsWith('Projects/Greenhouse'))).toBe(true);
  // Picked from the keyboard (the workbench stacks the list under the settings modal, so a click cannot reach it there).
  await folder.press('Enter');
  await page.waitForSelector('.suggestion-container', { state: 'detached' });
  expect(await folder.inputValue()).toBe('Projects/Greenhouse');
  expect((await savedProjects()).find((p) => p.id === 'piano')?.folder).toBe('Projects/Greenhouse');
  expect(await piano.locator('summary').textContent()).toContain('Projects/Greenhouse · 0 notes');
  await piano.locator('textarea.strata-project-notes').fill('[[Projects/Greenhouse/Plan]]\nProjects/Greenhouse/Seedlings.md');
  expect((await savedProjects()).find((p) => p.id === 'piano')?.notes).toEqual(['Projects/Greenhouse/Plan.md', 'Projects/Greenhouse/Seedlings.md']);
  await piano.locator('select.strata-project-model').selectOption('local-anthropic::claude-sonnet-4-5');
  expect((await savedProjects()).find((p) => p.id === 'piano')).toMatchObject({ provider: 'local-anthropic', model: 'claude-sonnet-4-5' });
  await piano.scrollIntoViewIfNeeded();
  await wb.screenshotThemes('projects-settings');

  await page.getByRole('button', { name: 'Add project' }).click();
  await page.waitForSelector('.strata-settings-project[data-project="new-project"][open]');
  expect((await savedProjects()).map((p) => p.id)).toEqual(['greenhouse', 'piano', 'long', 'new-project']);
  await page.locator('.strata-settings-project[data-project="new-project"]').getByRole('button', { name: 'Remove project' }).click();
  await page.waitForSelector('.strata-settings-project[data-project="new-project"]', { state: 'detached' });
  expect((await savedProjects()).map((p) => p.id)).toEqual(['greenhouse', 'piano', 'long']);
  await wb.closeSettings();
  expect(await wb.errors()).toEqual([]);
});
