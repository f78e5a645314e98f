/**
 * Projects in data.json: read leniently like the rest of the settings. A damaged project is left
 * out with a warning; a damaged field of a good project is left out or falls back on its own.
 */
import { loadSettings } from '../../../src/core/settings/settings';
import { chatFolders, findProject, followRename, newProjectId, notePath, projectFacts, projectLabel, projectModel } from '../../../src/core/projects/projects';
import { projectChatsFolder } from '../../../src/core/projects/folders';


test('no projects by default', () => {
  expect(loadSettings({}).settings.projects).toEqual([]);
  expect(loadSettings(undefined).settings.projects).toEqual([]);
});

test('a valid project is read with its folder normalized and its notes deduplicated', () => {
  const { settings, warnings } = loadSettings({
    projects: [
      {
        id: 'greenhouse',
        name: ' Greenhouse ',
        folder: '/Projects//Greenhouse/',
        prompt: 'Answer as the greenhouse log keeper.',
        notes: ['Projects/Greenhouse/Plan.md', 'Projects/Greenhouse/Plan.md', ' Projects/Greenhouse/Ventilation.md '],
        provider: 'openai',
        model: 'gpt-4o-mini',
      },
      { id: 'piano', folder: 'Piano Lessons' },
    ],
  });
  expect(warnings).toEqual([]);
  expect(settings.projects).toEqual([
    {
      id: 'greenhouse',
      name: 'Greenhouse',
      folder: 'Projects/Greenhouse',
      prompt: 'Answer as the greenhouse log keeper.',
      notes: ['Projects/Greenhouse/Plan.md', 'Projects/Greenhouse/Ventilation.md'],
      provider: 'openai',
      model: 'gpt-4o-mini',
    },
    // Only the id is needed: the name is the id, no prompt, no notes, the chat defaults' model.
    { id: 'piano', name: 'piano', folder: 'Piano Lessons', prompt: '', notes: [] },
  ]);
  expect(findProject(settings, 'piano')?.folder).toBe('Piano Lessons');
  expect(projectLabel(settings, 'greenhouse')).toBe('project Greenhouse');
  expect(projectLabel(settings, 'gone')).toBe('project gone (missing)');
  expect(projectLabel(settings, undefined)).toBe('no project');
  expect(projectModel(settings, findProject(settings, 'greenhouse'))).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
  expect(projectModel(settings, findProject(settings, 'piano'))).toBeNull();
  // Every folder chats are saved in: the chat folder, then each project's Chats folder.
  expect(chatFolders(settings)).toEqual(['Strata/Chats', 'Projects/Greenhouse/Chats', 'Piano Lessons/Chats']);
});

test('damaged projects are left out with a warning; damaged fields of a good one fall back', () => {
  const { settings, warnings } = loadSettings({
    projects: [
      { id: 'Bad Id!', name: 'Bad', folder: 'X' },
      'not a project',
      { name: 'No id', folder: 'Y' },
      { id: 'ok', name: 42, folder: 7, prompt: ['x'], notes: ['a.md', 3, ''], provider: '', model: 'm' },
      { id: 'ok', name: 'Duplicate', folder: 'Z' },
    ],
  });
  expect(settings.projects).toEqual([{ id: 'ok', name: 'ok', folder: '', prompt: '', notes: ['a.md'], model: 'm' }]);
  expect(warnings).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^projects\[0\]\.id: .*the project is left out$/),
      expect.stringMatching(/^projects\[1\]: .*the project is left out$/),
      expect.stringMatching(/^projects\[2\]\.id: .*the project is left out$/),
      expect.stringMatching(/^projects\[3\]\.name: .*the id is used$/),
      expect.stringMatching(/^projects\[3\]\.folder: /),
      expect.stringMatching(/^projects\[3\]\.notes\[1\]: /),
      'projects: duplicate id "ok"; the later one is ignored',
    ]),
  );
  // A model without a provider is no default model.
  expect(projectModel(settings, settings.projects[0])).toBeNull();
  // The other settings are untouched by a bad project.
  expect(settings.chatFolder).toBe('Strata/Chats');
});

test('projects that are not a list fall back to none, with a warning', () => {
  const { settings, warnings } = loadSettings({ projects: { id: 'x' } });
  expect(settings.projects).toEqual([]);
  expect(warnings).toEqual([expect.stringMatching(/^projects: .*no projects$/)]);
});

test('helpers: chats folder, new ids, facts, note paths', () => {
  expect(projectChatsFolder('Projects/Alpha/')).toBe('Projects/Alpha/Chats');
  expect(projectChatsFolder('')).toBeNull();
  expect(newProjectId([], 'New project')).toBe('new-project');
  expect(newProjectId([{ id: 'new-project' }], 'New project')).toBe('new-project-2');
  expect(newProjectId([], 'Été 2026 !')).toBe('ete-2026');
  expect(newProjectId([], '!!!')).toBe('project');
  expect(projectFacts({ id: 'a', name: 'A', folder: 'Projects/A', prompt: '', notes: ['x.md'] })).toBe('Projects/A · 1 note');
  expect(projectFacts({ id: 'a', name: 'A', folder: '', prompt: '', notes: [], provider: 'p', model: 'm' })).toBe('whole vault · 0 notes · m');
  expect(notePath('[[Projects/A/Brief|the brief]]')).toBe('Projects/A/Brief.md');
  expect(notePath(' Projects/A/Plan.md ')).toBe('Projects/A/Plan.md');
  expect(notePath('/Projects//A/Data.csv')).toBe('Projects/A/Data.csv');
});

test('a renamed folder or note: the projects follow it', () => {
  const { settings } = loadSettings({
    projects: [
      { id: 'a', folder: 'Projects/Alpha', notes: ['Projects/Alpha/Brief.md', 'Shared/Glossary.md'] },
      { id: 'b', folder: 'Projects/Alphabet', notes: [] },
      { id: 'c', folder: '', notes: ['Shared/Glossary.md'] },
    ],
  });
  expect(followRename(settings.projects, 'Projects/Alpha', 'Archive/Alpha')).toBe(true);
  expect(settings.projects.map((p) => [p.folder, p.notes])).toEqual([
    ['Archive/Alpha', ['Archive/Alpha/Brief.md', 'Shared/Glossary.md']],
    ['Projects/Alphabet', []],
    ['', ['Shared/Glossary.md']],
  ]);
  // The files inside it are renamed after it: nothing more to follow.
  expect(followRename(settings.projects, 'Projects/Alpha/Brief.md', 'Archive/Alpha/Brief.md')).toBe(false);
  expect(followRename(settings.projects, 'Shared/Glossary.md', 'Shared/Terms.md')).toBe(true);
  expect(settings.projects.map((p) => p.notes)).toEqual([['Archive/Alpha/Brief.md', 'Shared/Terms.md'], [], ['Shared/Terms.md']]);
  expect(followRename(settings.projects, 'Elsewhere', 'Other')).toBe(false);
});
