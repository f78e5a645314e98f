/**
 * Issue 14, URLs, through the chat controller: a web page attached with `@` (a URL chip carrying
 * its fetched text) is sent as `<url_context id="<url>">`; the turn keeps only the address (the
 * chat note keeps the text once, with the library item), so a retry after a failure, a
 * regeneration and a chat reopened from its note still have the page's text.
 */
import type { ProviderServer } from '../../../testing/providerServer';
import { withPageText, type UrlChip } from '../../../src/core/context/urlChip';
import type { StrataSettings } from '../../../src/core/settings/settings';
import { makeController, NoteFiles, settingsFor } from './controllerHarness';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

const URL = 'https://example.com/vents';
const TEXT = 'Open the roof vents when the air inside passes 24 °C.';
const PAGE: UrlChip = { kind: 'url', url: URL, title: 'Vent guide', content: TEXT };

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const settings = (): StrataSettings => ({ ...settingsFor(server.url), generateTitles: false });

function lastSent(): string {
  const generations = server.requests.filter((r) => r.api !== undefined && r.path.includes('completions'));
  const body = generations[generations.length - 1].body as { messages: { content: unknown }[] };
  return body.messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
}

test('sent with its text; the turn and the note keep the address on the turn and the text once, with the library item', async () => {
  const { controller, files } = makeController(settings());
  await controller.send('Summarize it', [PAGE]);
  await controller.flush();
  expect(lastSent()).toContain(`<url_context id="${URL}" title="Vent guide">\n${TEXT}\n</url_context>`);
  const state = controller.state;
  expect(state.answered[0].chips).toEqual([{ kind: 'url', url: URL, title: 'Vent guide' }]);
  expect(state.answered[0].problems).toEqual([]);
  const note = files.only();
  expect(note).toContain(`> [!strata-url]- Page text: ${URL}`);
  expect(note.split(TEXT)).toHaveLength(2);
});

test('a retry after a failure, and a regeneration, send the page again', async () => {
  const { controller } = makeController(settings());
  server.injectFault({ kind: 'status', status: 500, times: 3 });
  await controller.send('Summarize it', [PAGE]);
  expect(controller.state.pending?.status).toBe('failed');
  await controller.retry();
  expect(controller.state.answered).toHaveLength(1);
  expect(controller.state.answered[0].problems).toEqual([]);
  expect(lastSent()).toContain(`<url_context id="${URL}" title="Vent guide">`);
  expect(lastSent()).toContain(TEXT);
  await controller.regenerate();
  expect(controller.state.answered[0].problems).toEqual([]);
  expect(lastSent()).toContain(TEXT);
});

test('a chat reopened from its note (another controller, nothing fetched) still sends the page, and a regeneration too', async () => {
  const files = new NoteFiles();
  const { controller: a } = makeController(settings(), { files, ids: ['chat-a'] });
  await a.send('Summarize it', [PAGE]);
  await a.flush();

  const { controller: b } = makeController(settings(), { files, ids: ['unused'] });
  await b.open('chat-a');
  expect(b.state.library.find((i) => i.id === URL)).toMatchObject({ kind: 'url', title: 'Vent guide' });
  await b.send('And the side vents?', []);
  expect(lastSent()).toContain(TEXT);
  expect(b.state.answered[1].problems).toEqual([]);
  // An edited last message goes again with the library's copy.
  await b.editLast('And the side vents, again?');
  expect(lastSent()).toContain(TEXT);
});

describe('withPageText', () => {
  const bare = { kind: 'url' as const, url: URL, title: 'Vent guide' };

  test('the text fetched this session first, then the library copy (its latest version), else as it was', () => {
    expect(withPageText([bare], new Map([[URL, PAGE]]), [])).toEqual([PAGE]);
    const library = [
      { id: URL, kind: 'url', title: 'Vent guide', content: 'old' },
      { id: 'Notes/A.md', kind: 'note', title: 'A' },
      { id: URL, kind: 'url', title: 'Vent guide', content: 'new' },
    ];
    expect(withPageText([bare], new Map(), library)).toEqual([{ ...bare, content: 'new' }]);
    // A library item titled with its address (a page without a title) gives no title.
    expect(withPageText([{ kind: 'url', url: URL }], new Map(), [{ id: URL, kind: 'url', title: URL, content: 'x' }])).toEqual([{ kind: 'url', url: URL, content: 'x' }]);
    expect(withPageText([{ kind: 'url', url: 'https://other.example/' }], new Map(), library)).toEqual([{ kind: 'url', url: 'https://other.example/' }]);
    const note = { kind: 'note' as const, path: 'Notes/A.md' };
    expect(withPageText([note, PAGE], new Map(), [])).toEqual([note, PAGE]);
  });
});
