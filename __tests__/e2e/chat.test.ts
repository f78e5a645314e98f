/**
 * The chat sidebar end to end: the real plugin bundle in Chromium (workbench shim of the obsidian
 * module), the real provider adapters over HTTP to the local provider server (proxied by the
 * workbench), chat notes written to a vault folder on disk. Screenshots of the main states, in
 * both themes, go to the harness's screenshot folder.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ProviderServer, RecordedRequest } from '../../testing/providerServer';
import { startWorkbench, type Workbench } from './harness';

const PLAN = 'Projects/Greenhouse/Plan.md';
const VENT = 'Projects/Greenhouse/Ventilation.md';

let wb: Workbench;
let page: Page;
let server: ProviderServer;

beforeAll(async () => {
  wb = await startWorkbench({ theme: 'light', openNote: PLAN });
  page = wb.page;
  if (!wb.providerServer) throw new Error('the workbench started without a provider server');
  server = wb.providerServer;
}, 120_000);

afterAll(async () => {
  await wb?.close();
});

/** A screenshot of the current state in the light and the dark theme. */
async function shoot(name: string): Promise<void> {
  await wb.screenshot(`chat-${name}-light`);
  await wb.setTheme('dark');
  await wb.screenshot(`chat-${name}-dark`);
  await wb.setTheme('light');
}

/** What the streaming test records in the page. */
interface StreamWindow {
  strataStream?: string[];
}

function generationRequests(): RecordedRequest[] {
  return server.requests.filter((r) => r.path.includes('chat/completions'));
}

async function assistantTexts(): Promise<string[]> {
  return page.$$eval('.strata-message.is-assistant:not(.is-failed):not(.is-streaming) .strata-message-body', (els) => els.map((e) => (e.textContent ?? '').trim()));
}

async function userTexts(): Promise<string[]> {
  return page.$$eval('.strata-message.is-user > .strata-message-body', (els) => els.map((e) => (e.textContent ?? '').trim()));
}

async function send(text: string): Promise<void> {
  const before = (await assistantTexts()).length;
  await page.fill('.strata-composer textarea', text);
  await page.press('.strata-composer textarea', 'Enter');
  await page.waitForFunction(
    ([n]) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length > n || document.querySelector('.strata-message.is-failed') !== null,
    [before],
  );
}

async function openPanel(): Promise<void> {
  if (!(await page.$('.strata-context-panel.is-open'))) await page.click('.strata-context-summary');
  await page.waitForSelector('.strata-usage');
}

async function closePanel(): Promise<void> {
  if (await page.$('.strata-context-panel.is-open')) await page.click('.strata-context-summary');
}

describe('chat sidebar in the browser', () => {
  test('commands exist without default hotkeys; opening the chat attaches the active note', async () => {
    const commands = (await wb.listCommands()).filter((c) => c.id.startsWith('strata:'));
    expect(commands.map((c) => c.id).sort()).toEqual(
      ['strata:add-current-note', 'strata:add-selection', 'strata:condense-chat', 'strata:edit-selection', 'strata:import-copilot-chat', 'strata:new-chat', 'strata:new-chat-in-new-tab', 'strata:open-chat', 'strata:open-chat-history', 'strata:open-related-notes'].sort(),
    );
    expect(commands.every((c) => c.hotkeys.length === 0)).toBe(true);

    expect(await wb.runCommand('strata:open-chat')).toBe(true);
    await page.waitForSelector('.strata-composer textarea');
    await page.waitForSelector('.strata-chip.is-active-note');
    expect(await page.textContent('.strata-chip.is-active-note .strata-chip-label')).toBe('Plan');
    expect(await page.textContent('.strata-empty-title')).toBe('Ask about your vault');
    await shoot('01-empty');
  });

  test('@ opens a fuzzy picker of notes, folders and tags; picking one adds a chip', async () => {
    await page.click('.strata-composer textarea');
    await page.locator('.strata-composer textarea').pressSequentially('Compare @vntl');
    await page.waitForSelector('.strata-suggest-item');
    const first = await page.textContent('.strata-suggest-item.is-selected .strata-suggest-label');
    expect(first).toBe('Ventilation');
    await shoot('02-mention');
    await page.press('.strata-composer textarea', 'Enter');
    await page.waitForSelector('.strata-chip[data-chip="note:Projects/Greenhouse/Ventilation.md"]');
    expect(await page.inputValue('.strata-composer textarea')).toBe('Compare [[Ventilation]] ');
    // Folders and tags are offered too.
    await page.locator('.strata-composer textarea').pressSequentially('@greenh');
    await page.waitForSelector('.strata-suggest-item');
    const chips = await page.$$eval('.strata-suggest-item', (els) => els.map((e) => e.getAttribute('data-chip')));
    expect(chips).toEqual(expect.arrayContaining(['folder:Projects/Greenhouse', 'tag:#greenhouse']));
    await page.press('.strata-composer textarea', 'Escape');
    await page.fill('.strata-composer textarea', '');
    // Shift+Enter breaks the line; nothing is sent.
    await page.locator('.strata-composer textarea').pressSequentially('line one');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('line two');
    expect(await page.inputValue('.strata-composer textarea')).toBe('line one\nline two');
    expect(server.requests).toHaveLength(0);
    await page.fill('.strata-composer textarea', '');
  });

  test('send: the reply streams in, then renders as markdown with clickable note links', async () => {
    await page.evaluate(() => {
      const w = window as unknown as StreamWindow;
      w.strataStream = [];
      new MutationObserver((records) => {
        for (const r of records) {
          const el = (r.target.nodeType === Node.ELEMENT_NODE ? (r.target as Element) : r.target.parentElement)?.closest('.strata-streaming-text');
          if (el) w.strataStream?.push(el.textContent ?? '');
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await send('How do they fit together? See [[Seedlings]] and `vent()`.');
    const replies = await assistantTexts();
    const expected = `Seen context: ${PLAN}, ${VENT}. Question: How do they fit together? See Seedlings and vent()..`;
    expect(replies).toEqual([expected]);
    const streamed = await page.evaluate(() => (window as unknown as StreamWindow).strataStream ?? []);
    const partials = streamed.filter((t) => t.length > 0);
    expect(partials.length).toBeGreaterThan(0);
    // Every streamed state was a prefix of the final text as the model sent it.
    const raw = `Seen context: ${PLAN}, ${VENT}. Question: How do they fit together? See [[Seedlings]] and \`vent()\`..`;
    // Markdown: inline code is rendered as code.
    expect(await page.textContent('.strata-message.is-assistant .strata-message-body code')).toBe('vent()');
    expect(partials.every((t) => raw.startsWith(t))).toBe(true);
    // The request that carried the attached notes was streamed (the title request, which reads the reply, may come after it).
    const withContext = generationRequests().filter((r) => JSON.stringify(r.body).includes('<note_context'));
    expect(withContext.length).toBeGreaterThan(0);
    expect(withContext.every((r) => r.body.stream === true)).toBe(true);
    // The user message shows what was attached.
    const chips = await page.$$eval('.strata-message.is-user .strata-chip-label', (els) => els.map((e) => e.textContent));
    expect(chips).toEqual(['Plan', 'Ventilation']);
    // Composer chips are cleared, the active note stays.
    expect(await page.$$eval('.strata-composer .strata-chip', (els) => els.length)).toBe(1);
    // The note link in the reply is a real internal link: it opens the note, and the chat's active-note chip follows.
    await page.click('.strata-message.is-assistant a.internal-link');
    await page.waitForFunction(() => document.querySelector('.strata-chip.is-active-note .strata-chip-label')?.textContent === 'Seedlings');
    await wb.openNote(PLAN);
    await page.waitForFunction(() => document.querySelector('.strata-chip.is-active-note .strata-chip-label')?.textContent === 'Plan');
  });

  test('the usage panel shows tokens by layer against the window, the cached share and the cost', async () => {
    await send('And the budget?');
    await openPanel();
    const layers = await page.$$eval('.strata-usage-layer', (els) => els.map((e) => [e.getAttribute('data-layer'), Number((e.querySelector('.strata-usage-value')?.textContent ?? '').replace(/[^0-9]/g, ''))]));
    const byLayer = Object.fromEntries(layers) as Record<string, number>;
    expect(Object.keys(byLayer)).toEqual(['system', 'library', 'turn', 'history', 'message']);
    expect(byLayer.system).toBeGreaterThan(0);
    expect(byLayer.library).toBeGreaterThan(0);
    expect(byLayer.history).toBeGreaterThan(0);
    expect(await page.textContent('.strata-usage-total')).toMatch(/of 100,000 tokens/);
    expect(await page.textContent('.strata-usage-cached .strata-usage-value')).toMatch(/^\d+% of [\d,]+$/);
    expect(await page.textContent('.strata-usage-cost .strata-usage-value')).toMatch(/^(\$|<\$)/);
    const library = await page.$$eval('.strata-library-item', (els) => els.map((e) => [e.getAttribute('data-id'), e.querySelector('.strata-library-tokens')?.textContent]));
    expect(library.map(([id]) => id)).toEqual([PLAN, VENT]);
    expect(library.every(([, tokens]) => Number(tokens) > 0)).toBe(true);
    expect(await page.textContent('.strata-message.is-assistant:last-of-type .strata-turn-meta, .strata-messages > .strata-message.is-assistant:last-child .strata-turn-meta')).toMatch(/in · .* out · \d+% cached/);
    await shoot('03-usage');
    await closePanel();
  });

  test('stop a reply: the message is kept with a retry that completes it', async () => {
    server.injectFault({ kind: 'hang', times: 1 });
    await page.fill('.strata-composer textarea', 'Will you wait?');
    await page.press('.strata-composer textarea', 'Enter');
    await page.waitForSelector('.strata-stop', { state: 'visible' });
    await page.waitForSelector('.strata-message.is-streaming');
    await shoot('04-waiting');
    await page.click('.strata-stop');
    await page.waitForSelector('.strata-message.is-stopped .strata-retry');
    expect((await userTexts()).at(-1)).toBe('Will you wait?');
    expect(await page.textContent('.strata-message.is-stopped .strata-error-text')).toMatch(/Stopped/);
    await shoot('05-stopped');
    await page.click('.strata-retry');
    await page.waitForFunction(() => !document.querySelector('.strata-message.is-failed') && !document.querySelector('.strata-message.is-streaming'));
    expect((await assistantTexts()).at(-1)).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Will you wait?.`);
  });

  test('an injected provider error shows inline with the provider message; retry reuses the kept message', async () => {
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    await send('Is this going to fail?');
    await page.waitForSelector('.strata-message.is-error');
    const error = await page.textContent('.strata-message.is-error .strata-error-text');
    expect(error).toMatch(/500/);
    expect((await userTexts()).at(-1)).toBe('Is this going to fail?');
    await shoot('06-error');
    const turnsBefore = (await assistantTexts()).length;
    await page.click('.strata-retry');
    await page.waitForFunction((n) => document.querySelectorAll('.strata-message.is-assistant:not(.is-failed):not(.is-streaming)').length > n, turnsBefore);
    expect(await page.$('.strata-message.is-error')).toBeNull();
    expect((await assistantTexts()).at(-1)).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Is this going to fail?.`);
    expect((await userTexts()).filter((t) => t === 'Is this going to fail?')).toHaveLength(1);
  });

  test('edit and resend the last message; regenerate the last reply', async () => {
    const count = (await userTexts()).length;
    await page.hover('.strata-messages > .strata-message.is-user:nth-last-child(2)');
    await page.click('.strata-messages > .strata-message.is-user:nth-last-child(2) .strata-edit');
    await page.fill('.strata-edit-input', 'Is this going to work?');
    await page.click('.strata-edit-send');
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.strata-message.is-assistant .strata-message-body')).some((e) => e.textContent?.includes('Question: Is this going to work?')));
    expect((await userTexts()).length).toBe(count);
    expect((await userTexts()).at(-1)).toBe('Is this going to work?');
    const requestsBefore = generationRequests().length;
    await page.hover('.strata-messages > .strata-message.is-assistant:last-child');
    await page.click('.strata-regenerate');
    await page.waitForFunction(() => !document.querySelector('.strata-message.is-streaming'));
    await page.waitForSelector('.strata-regenerate');
    expect(generationRequests().length).toBe(requestsBefore + 1);
    expect((await assistantTexts()).length).toBe(count);
  });

  test('removing a library item is said to restart the cached prefix, and the model stops seeing it', async () => {
    await openPanel();
    await page.click(`.strata-library-item[data-id="${VENT}"] .strata-library-remove`);
    await page.waitForSelector('.strata-library-confirm');
    await shoot('07-library-remove');
    await page.click('.strata-library-confirm-remove');
    await page.waitForFunction((id) => !document.querySelector(`.strata-library-item[data-id="${id}"]`), VENT);
    expect(await page.textContent('.strata-warnings')).toMatch(/removed from the Context Library.*new cached prefix/);
    await closePanel();
    await send('What is left?');
    expect((await assistantTexts()).at(-1)).toBe(`Seen context: ${PLAN}. Question: What is left?.`);
    expect(await page.textContent('.strata-messages > .strata-message.is-assistant:last-child .strata-prefix-change')).toMatch(/library-item-removed/);
  });

  test('the model and mode pickers: another provider answers, the switch is a named prefix break; modes travel with the turn', async () => {
    await page.selectOption('select.strata-model-picker', 'local-anthropic::claude-sonnet-4-5');
    await send('Which model is this?');
    const anthropic = server.requests.filter((r) => r.path.includes('messages')).at(-1);
    expect(anthropic?.body.model).toBe('claude-sonnet-4-5');
    expect((await assistantTexts()).at(-1)).toBe(`Seen context: ${PLAN}. Question: Which model is this?.`);
    expect(await page.textContent('.strata-messages > .strata-message.is-assistant:last-child .strata-prefix-change')).toMatch(/model-switch/);
    await page.selectOption('select.strata-model-picker', 'local-openai::gpt-4o');
    await page.selectOption('select.strata-mode-picker', 'notes-only');
    await send('Only from my notes, please.');
    expect(JSON.stringify(generationRequests().at(-1)?.body.messages)).toContain('Mode: notes only');
    await page.selectOption('select.strata-mode-picker', 'chat');
  });

  test('add selection and add current note commands put chips in the composer', async () => {
    await wb.selectText('Keep the night temperature');
    expect(await wb.runCommand('strata:add-selection')).toBe(true);
    await page.waitForSelector('.strata-chip.is-selection');
    expect(await page.textContent('.strata-chip.is-selection .strata-chip-label')).toBe('Plan (line 11)');
    await page.click('.strata-chip.is-selection .strata-chip-remove');
    expect(await page.$('.strata-chip.is-selection')).toBeNull();
    // Toggling the active note chip leaves it out of the next message.
    await page.click('.strata-chip.is-active-note .strata-chip-toggle');
    expect(await page.$('.strata-chip.is-active-note.is-off')).not.toBeNull();
    await page.click('.strata-chip.is-active-note .strata-chip-toggle');
    expect(await page.$('.strata-chip.is-active-note.is-off')).toBeNull();
  });

  test('a library note edited between turns is sent again, and the chat says so', async () => {
    const text = await wb.readVaultFile(PLAN);
    await wb.writeVaultFile(PLAN, `${text}\n- Paint the frame green.\n`);
    await send('Anything new in the plan?');
    const last = '.strata-messages > .strata-message.is-assistant:last-child';
    expect(await page.textContent(`${last} .strata-freshness`)).toMatch(/Projects\/Greenhouse\/Plan\.md: .*changed/);
    const sent = JSON.stringify(generationRequests().at(-1)?.body.messages);
    expect(sent).toContain('Paint the frame green.');
    await openPanel();
    expect(await page.textContent(`.strata-library-item[data-id="${PLAN}"] .strata-library-detail`)).toMatch(/v2/);
    await closePanel();
  });

  test('the chat is saved as a note; reopened from history it continues where it stopped', async () => {
    await wb.flush();
    const folder = join(wb.vaultDir, 'Strata', 'Chats');
    expect(existsSync(folder)).toBe(true);
    const notes = readdirSync(folder).filter((f) => f.endsWith('.md'));
    expect(notes).toHaveLength(1);
    const note = readFileSync(join(folder, notes[0]), 'utf8');
    expect(note).toContain('What is left?');
    expect(note).not.toContain('<note_context');
    const before = await userTexts();

    await page.click('.strata-new-chat');
    await page.waitForSelector('.strata-empty');
    expect(await page.textContent('.strata-title')).toBe('New chat');

    await page.click('.strata-history-button');
    await page.waitForSelector('.strata-history-item');
    await page.fill('.strata-history-search', 'budget');
    await page.waitForFunction(() => document.querySelectorAll('.strata-history-item').length === 1);
    await shoot('08-history');
    await page.click('.strata-history-item .strata-history-main');
    await page.waitForSelector('.strata-history-modal', { state: 'detached' });
    await page.waitForFunction((n) => document.querySelectorAll('.strata-message.is-user').length === n, before.length);
    expect(await userTexts()).toEqual(before);
    expect(await page.textContent('.strata-warnings')).toMatch(/Reopened: version 1 of Projects\/Greenhouse\/Plan\.md .* is no longer in the vault/);
    await openPanel();
    expect(await page.$$eval('.strata-library-item', (els) => els.map((e) => e.getAttribute('data-id')))).toEqual([PLAN]);
    await closePanel();

    await send('One more thing');
    expect((await assistantTexts()).at(-1)).toBe(`Seen context: ${PLAN}. Question: One more thing.`);
    // Reopening rebuilt the library from the vault. Plan was edited after turn 1, so the copy sent
    // then cannot be read any more: said on reopening, and the next turn names the prefix break.
    expect(await page.textContent('.strata-messages > .strata-message.is-assistant:last-child .strata-prefix-change')).toMatch(/note-edited/);
    expect(await page.$('.strata-warning')).toBeNull();
    await shoot('09-reopened');
  });

  test('rename from the header; history: rename and delete (to the trash)', async () => {
    await page.click('.strata-title');
    await page.fill('.strata-title-input', 'Greenhouse talk');
    await page.press('.strata-title-input', 'Enter');
    await page.waitForFunction(() => document.querySelector('.strata-title')?.textContent === 'Greenhouse talk');
    await page.click('.strata-history-button');
    await page.waitForSelector('.strata-history-item');
    expect(await page.textContent('.strata-history-title')).toBe('Greenhouse talk');
    await page.click('.strata-history-rename');
    await page.fill('.strata-history-rename-input', 'Greenhouse planning');
    await page.press('.strata-history-rename-input', 'Enter');
    await page.waitForFunction(() => document.querySelector('.strata-history-title')?.textContent === 'Greenhouse planning');
    await page.click('.strata-history-delete');
    await page.click('.strata-history-confirm-delete');
    await page.waitForSelector('.strata-history-empty');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.strata-empty');
    // The browser logs the injected HTTP 500s as failed loads: expected; nothing else may appear.
    const errors = (await wb.errors()).filter((e) => !/Failed to load resource: .* 500/.test(e));
    expect(errors).toEqual([]);
  });
});
