/**
 * Projects through the chat controller: real LangChain clients over HTTP to the local provider
 * server, the real chat-note archive in memory, the example vault. A chat put in a project sends its
 * prompt as a static L1 fragment (in the system message, after the system prompt, before the
 * library instruction), starts with the project's model, is saved in the project's Chats folder,
 * is listed in history with the other chats, and reopens in its project. Switching project in a
 * chat with turns is a named prefix break ('project-switch'); a project no longer configured is
 * kept on the chat, named missing, and the chat goes on without it.
 */
import { ChatController } from '../../../src/core/chat/chatController';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { PromptContextEngine } from '../../../src/core/engine/engine';
import { LIBRARY_INSTRUCTION } from '../../../src/core/engine/render';
import { DEFAULT_SYSTEM_PROMPT } from '../../../src/core/systemPrompt';
import { turnInput } from '../../../src/core/chat/turnPipeline';
import { ChipResolver } from '../../../src/core/context/resolver';
import { FsVault } from '../../../src/node/fsVault';
import type { StrataSettings } from '../../../src/core/settings/settings';
import { projectLabel } from '../../../src/core/projects/projects';
import type { ProviderServer } from '../../../testing/providerServer';
import { breakNoteOf } from '../../../src/obsidian/view/breakNotes';
import { makeController, NoteFiles, PLAN, settingsFor, VAULT } from '../chat/controllerHarness';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const GREENHOUSE_PROMPT = 'You keep the greenhouse log: answer with the dates of the log entries.';
const PIANO_PROMPT = 'You are the piano teacher: answer with the lesson numbers.';

function projectSettings(): StrataSettings {
  const base = settingsFor(server.url);
  return {
    ...base,
    providers: base.providers.map((p) => ({ ...p, models: ['gpt-4o', 'gpt-4o-mini'] })),
    projects: [
      { id: 'greenhouse', name: 'Greenhouse', folder: 'Projects/Greenhouse', prompt: GREENHOUSE_PROMPT, notes: [PLAN], provider: 'local', model: 'gpt-4o-mini' },
      { id: 'piano', name: 'Piano', folder: 'Piano Lessons', prompt: PIANO_PROMPT, notes: [] },
      { id: 'quiet', name: 'Quiet', folder: 'Notes', prompt: '', notes: [] },
      { id: 'silent', name: 'Silent', folder: 'Reading', prompt: '', notes: [] },
    ],
  };
}

/** A controller over an archive that knows the projects (as the plugin's does: read at each call). */
function projectController(settings: StrataSettings, files = new NoteFiles()) {
  const h = makeController(settings, { files, ids: ['chat-1', 'chat-2', 'chat-3', 'chat-4', 'chat-5'] });
  const archive = new ChatArchive(files, { now: h.deps.now }, settings.chatFolder, () => settings.projects);
  const deps = { ...h.deps, archive, settings: () => settings };
  return { controller: new ChatController(deps), files, archive, deps };
}

type Wire = { role: string; content: string };
const chatRequests = (): Wire[][] => server.requests.filter((r) => r.path.includes('chat/completions')).map((r) => (r.body as { messages: Wire[] }).messages);
const systemOf = (messages: Wire[]) => messages.find((m) => m.role === 'system')?.content ?? '';

test('the project prompt is a static L1 fragment after the system prompt and memory, before the library instruction', async () => {
  const settings = { ...projectSettings(), memory: 'I grow tomatoes.' };
  const input = await turnInput(
    { model: 'gpt-4o', mode: 'chat', project: 'greenhouse', userText: 'Hi', chips: [] },
    new PromptContextEngine(),
    new ChipResolver(new FsVault(VAULT)),
    settings,
    false,
  );
  expect(input.fragments.map((f) => [f.id, f.lifecycle])).toEqual([
    ['system', 'static'],
    ['memory', 'static'],
    ['project', 'static'],
  ]);
  expect(input.fragments[2].text).toBe(`## Project\n${GREENHOUSE_PROMPT}`);
  // No project, a project without a prompt, a project no longer configured: no fragment.
  for (const project of [undefined, 'quiet', 'gone']) {
    const plain = await turnInput({ model: 'gpt-4o', mode: 'chat', project, userText: 'Hi', chips: [] }, new PromptContextEngine(), new ChipResolver(new FsVault(VAULT)), settings, false);
    expect(plain.fragments.map((f) => f.id)).toEqual(['system', 'memory']);
  }

  // Through the controller: the request's system message carries it, in that order.
  const { controller } = projectController(settings);
  controller.setProject('greenhouse');
  await controller.send('What is in the plan?');
  expect(controller.state.conversation.turns[0].status).toBe('complete');
  const system = systemOf(chatRequests()[0]);
  const at = (text: string) => system.indexOf(text);
  expect(at(DEFAULT_SYSTEM_PROMPT)).toBe(0);
  expect(at('I grow tomatoes.')).toBeGreaterThan(0);
  expect(at(GREENHOUSE_PROMPT)).toBeGreaterThan(at('I grow tomatoes.'));
  expect(at(LIBRARY_INSTRUCTION)).toBeGreaterThan(at(GREENHOUSE_PROMPT));
  // The second request extends the first: the project prompt is part of the cached prefix.
  await controller.send('And the budget?');
  const [first, second] = chatRequests();
  expect(second.slice(0, first.length).map((m) => m.content)).toEqual(first.map((m) => m.content).slice(0, first.length));
  expect(controller.state.conversation.turns[1].envelope?.prefixChange).toBeNull();
});

test("a chat put in a project while empty takes its model; new chats started from it belong to it; no project brings the default back", async () => {
  const settings = projectSettings();
  const { controller } = projectController(settings);
  expect(controller.state.conversation.project).toBeUndefined();
  expect(controller.state.conversation.model).toBe('gpt-4o');

  controller.setProject('greenhouse');
  expect(controller.state.conversation.project).toBe('greenhouse');
  expect([controller.state.conversation.provider, controller.state.conversation.model]).toEqual(['local', 'gpt-4o-mini']);

  await controller.newChat();
  expect(controller.state.conversation.id).not.toBe('chat-1');
  expect(controller.state.conversation.project).toBe('greenhouse');
  expect(controller.state.conversation.model).toBe('gpt-4o-mini');

  // A project without a default model: the chat's default.
  controller.setProject('piano');
  expect([controller.state.conversation.project, controller.state.conversation.model]).toEqual(['piano', 'gpt-4o']);
  controller.setProject(null);
  expect(controller.state.conversation.project).toBeUndefined();
  await controller.newChat();
  expect(controller.state.conversation.project).toBeUndefined();
});

test("a project's chat is saved in the project's Chats folder, listed in history with the others, and reopens in its project", async () => {
  const settings = projectSettings();
  const { controller, files, archive, deps } = projectController(settings);
  await controller.send('A chat without a project.');
  const plainId = controller.state.conversation.id;
  await controller.newChat();
  controller.setProject('greenhouse');
  await controller.send('What is in the plan?');
  const projectId = controller.state.conversation.id;
  await controller.flush();

  const paths = [...files.files.keys()];
  expect(paths.filter((p) => p.startsWith('Strata/Chats/'))).toHaveLength(1);
  const projectPath = paths.find((p) => p.startsWith('Projects/Greenhouse/Chats/'));
  expect(projectPath).toMatch(/^Projects\/Greenhouse\/Chats\/\d{4}-\d{2}-\d{2} What is in the plan\.md$/);
  const note = files.files.get(projectPath!)!;
  // In the frontmatter, next to the chat's id (what the Properties view and the chat list read).
  expect(note.slice(0, note.indexOf('\n---', 4))).toMatch(/strata:\n {2}format: 3\n {2}id: chat-\d\n {2}project: greenhouse\n/);

  // A note of the user's own in that folder is not a chat.
  files.files.set('Projects/Greenhouse/Chats/My own list.md', '# Things to ask\n- vents\n');
  const listed = await archive.list();
  expect(listed.map((s) => s.id).sort()).toEqual([plainId, projectId].sort());
  expect(listed.find((s) => s.id === projectId)?.path).toBe(projectPath);
  expect((await archive.search('plan')).map((s) => s.id)).toEqual([projectId]);

  // Reopened (a new controller, as after a restart): in its project, the next request carries its prompt.
  const reopened = new ChatController({ ...deps, archive: new ChatArchive(files, { now: deps.now }, settings.chatFolder, () => settings.projects) });
  await reopened.open(projectId);
  expect(reopened.state.conversation.project).toBe('greenhouse');
  expect(reopened.state.warnings).toEqual([]);
  await reopened.send('And the budget?');
  expect(systemOf(chatRequests().at(-1)!)).toContain(GREENHOUSE_PROMPT);
  expect(reopened.state.conversation.turns[1].envelope?.prefixChange).toBeNull();
  await reopened.flush();
  // Saved in place, not copied to the chat folder.
  expect([...files.files.keys()].filter((p) => p.endsWith('.md'))).toHaveLength(3);
});

test('switching project in a chat with turns is a named prefix break; the model stays; a switch survives a reopen', async () => {
  const settings = projectSettings();
  const { controller, files, deps } = projectController(settings);
  controller.setProject('greenhouse');
  await controller.send('First question.');

  controller.setProject('piano');
  // The chat keeps its model: only an empty chat takes the project's.
  expect(controller.state.conversation.model).toBe('gpt-4o-mini');
  await controller.send('Second question.');
  const second = controller.state.conversation.turns[1];
  expect(second.envelope?.prefixChange).toEqual({ reason: 'project-switch', detail: 'project Greenhouse → project Piano' });
  const system = systemOf(chatRequests()[1]);
  expect(system).toContain(PIANO_PROMPT);
  expect(system).not.toContain(GREENHOUSE_PROMPT);
  // The view's note under the reply says it in plain words.
  expect(breakNoteOf(second, false)?.text).toBe(
    "The provider's cache restarts because you moved the chat from project Greenhouse to project Piano, so its project instructions changed",
  );
  expect(breakNoteOf(second, false)?.technical).toContain('Prefix break (project-switch) in Instructions (L1): project Greenhouse → project Piano');

  // Out of any project.
  controller.setProject(null);
  await controller.send('Third question.');
  expect(controller.state.conversation.turns[2].envelope?.prefixChange).toEqual({ reason: 'project-switch', detail: 'project Piano → no project' });

  // Between two projects with no prompt: nothing in the request changes, nothing breaks.
  controller.setProject('quiet');
  await controller.send('Fourth question.');
  controller.setProject('silent');
  await controller.send('Fifth question.');
  expect(controller.state.conversation.turns[4].envelope?.prefixChange).toBeNull();

  // A switch made, saved, and the chat reopened before the next message: still named.
  controller.setProject('greenhouse');
  await controller.flush();
  const id = controller.state.conversation.id;
  const reopened = new ChatController({ ...deps, archive: new ChatArchive(files, { now: deps.now }, settings.chatFolder, () => settings.projects) });
  await reopened.open(id);
  expect(reopened.state.conversation.project).toBe('greenhouse');
  await reopened.send('Sixth question.');
  expect(reopened.state.conversation.turns[5].envelope?.prefixChange).toEqual({ reason: 'project-switch', detail: 'project Silent → project Greenhouse' });
});

test('a project no longer configured: the id is kept, named missing, and the chat goes on without its prompt', async () => {
  const settings = projectSettings();
  // A project without a folder: its chats are saved in the chat folder.
  settings.projects.push({ id: 'loose', name: 'Loose', folder: '', prompt: 'LOOSE PROMPT', notes: [] });
  const { controller, files, deps } = projectController(settings);
  controller.setProject('loose');
  await controller.send('Hello.');
  await controller.flush();
  const id = controller.state.conversation.id;
  expect([...files.files.keys()][0]).toMatch(/^Strata\/Chats\//);

  const without: StrataSettings = { ...settings, projects: settings.projects.filter((p) => p.id !== 'loose') };
  expect(projectLabel(without, 'loose')).toBe('project loose (missing)');
  const reopened = new ChatController({ ...deps, settings: () => without, archive: new ChatArchive(files, { now: deps.now }, without.chatFolder, () => without.projects) });
  await reopened.open(id);
  expect(reopened.state.conversation.project).toBe('loose');
  expect(reopened.state.warnings).toEqual([]);
  await reopened.send('Still there?');
  const turn = reopened.state.conversation.turns[1];
  expect(turn.status).toBe('complete');
  expect(systemOf(chatRequests().at(-1)!)).not.toContain('LOOSE PROMPT');
  // Its prompt left L1: a settings change, said as such.
  expect(turn.envelope?.prefixChange?.reason).toBe('settings-changed');
  await reopened.flush();
  expect(files.chat(id)?.project).toBe('loose');
  // A new chat from a chat whose project is missing belongs to no project.
  await reopened.newChat();
  expect(reopened.state.conversation.project).toBeUndefined();
});

test('a damaged project id in a chat note is left out with a warning; the chat opens', async () => {
  const settings = projectSettings();
  const { controller, files, deps } = projectController(settings);
  controller.setProject('greenhouse');
  await controller.send('Hello.');
  await controller.flush();
  const [path, text] = [...files.files.entries()][0];
  files.files.set(path, text.replace('  project: greenhouse\n', '  project: [1, 2]\n'));
  const reopened = new ChatController({ ...deps, archive: new ChatArchive(files, { now: deps.now }, settings.chatFolder, () => settings.projects) });
  await reopened.open(controller.state.conversation.id);
  expect(reopened.state.conversation.project).toBeUndefined();
  expect(reopened.state.warnings.map((w) => w.text)).toEqual([expect.stringMatching(/^Reopened: strata\.project: .*the chat is read without a project$/)]);
});
