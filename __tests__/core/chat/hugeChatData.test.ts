/**
 * Issue 26, finding 2, through the save path: a chat note whose chat data holds a 1 MB `id`
 * reopens with a warning, sends, and saves without the huge values; its messages,
 * properties and the user's own lines are kept. On main it reopened without a word and every save
 * wrote the megabyte back.
 */
import { makeController, memoryProviders, NoteFiles, PLAN, settingsFor } from './controllerHarness';

const settings = () => settingsFor('http://127.0.0.1:9');
const MB = 1_048_576;

test('a 1 MB id on the chat data line: reopened with a warning, sent, saved without them', async () => {
  const files = new NoteFiles();
  {
    const { providers } = memoryProviders();
    const { controller } = makeController(settings(), { providers, files, ids: ['chat-a'] });
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    await controller.flush();
  }
  const [path] = [...files.files.keys()];
  const note = files.files.get(path) ?? '';
  const damaged = note
    .replace(/^> \{/m, `> {"id":"${'i'.repeat(MB)}",`)
    .replace(/^---\n/, '---\nrating: 5\n');
  expect(damaged).not.toBe(note);
  files.files.set(path, damaged);

  const { providers } = memoryProviders();
  const { controller, archive } = makeController(settings(), { providers, files, ids: ['x'] });
  const listed = await archive.list();
  expect(listed).toHaveLength(1);
  expect(listed[0].id.length).toBeLessThan(100);
  await controller.open(listed[0].id);
  expect(controller.state.warnings.map((w) => w.text).join('\n')).toMatch(/id: expected at most 1000 characters/);
  await controller.send('Two', []);
  await controller.flush();
  const saved = files.files.get(path) ?? '';
  expect(saved.length).toBeLessThan(note.length + 20_000);
  expect(saved).not.toContain('i'.repeat(1_001));
  expect(saved).toContain('rating: 5\n');
  expect(controller.state.answered.map((t) => t.text)).toEqual(['One', 'Two']);
});
