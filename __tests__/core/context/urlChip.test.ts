/**
 * Issue 14, URLs: a web page attached with `@`. The address after `@` (typed or pasted), the page
 * as a URL chip (id = the URL, title = <title>, text capped as the agent's fetchUrl tool caps it),
 * the reasons a failed page's chip gives, and Obsidian's fetch (src/obsidian/toolHost.ts fetchPage,
 * over the workbench shim's requestUrl) against a local server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FETCH_LIMIT_CHARS, FETCH_MAX_BYTES, pageTimeout, pageTooLarge, unsupportedContent } from '../../../src/core/agent/webPage';
import { fetchFailure, pageOutcome, pastedUrl, shortUrl, urlChipText, urlMentionAt, type PageState, type UrlChip } from '../../../src/core/context/urlChip';
import { ChipResolver } from '../../../src/core/context/resolver';
import { MemoryVault } from '../search/memoryVault';
import { fetchPage } from '../../../src/obsidian/toolHost';

describe('the address after @', () => {
  test.each([
    ['https://example.com', 'https://example.com/'],
    ['http://127.0.0.1:5181/web/page.html', 'http://127.0.0.1:5181/web/page.html'],
    ['HTTPS://Example.com/Docs?q=1#top', 'https://example.com/Docs?q=1#top'],
    ['https://medium.com/@someone/a-post', 'https://medium.com/@someone/a-post'],
  ])('%s is a web page', (query, url) => {
    expect(pastedUrl(query)).toBe(url);
  });

  test.each(['Plan', 'https', 'https:', 'https://', 'https:///path', 'ftp://example.com/file', 'file:///etc/passwd', 'example.com', 'https://exa mple.com', 'javascript:alert(1)'])(
    '%s is not',
    (query) => {
      expect(pastedUrl(query)).toBeNull();
    },
  );

  test('only right after an @ that starts a word; an @ inside the address belongs to it', () => {
    const before = 'Summarize @https://medium.com/@someone/a-post';
    expect(urlMentionAt(before)).toEqual({ start: 'Summarize '.length, url: 'https://medium.com/@someone/a-post' });
    expect(urlMentionAt('@https://example.com/a')).toEqual({ start: 0, url: 'https://example.com/a' });
    // A bare address (no @) stays plain text; so does an e-mail-like "me@https://…".
    expect(urlMentionAt('see https://example.com/a')).toBeNull();
    expect(urlMentionAt('me@https://example.com/a')).toBeNull();
    // Typed up to the caret: a space after the address ends the mention.
    expect(urlMentionAt('@https://example.com/a ')).toBeNull();
    expect(urlMentionAt('@https://')).toBeNull();
  });
});

describe('a fetched page as a URL chip', () => {
  const URL = 'https://example.com/guide';

  test('attached: id the URL, title the page title, its markdown as the text', async () => {
    const state = pageOutcome(URL, { url: URL, title: '  Ventilation guide ', markdown: '# Vents\n\nOpen them at 24 °C.\n', status: 200 });
    expect(state).toEqual({ state: 'ready', chip: { kind: 'url', url: URL, title: 'Ventilation guide', content: '# Vents\n\nOpen them at 24 °C.' }, chars: 28, cut: 0, finalUrl: URL });
    const chip = (state as Extract<PageState, { state: 'ready' }>).chip;
    const { items, problems } = await new ChipResolver(new MemoryVault({})).resolve([chip]);
    expect(problems).toEqual([]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: URL, kind: 'url', title: 'Ventilation guide', source: URL, content: '# Vents\n\nOpen them at 24 °C.' });
  });

  test('a page without a title keeps none: its chip shows the address', () => {
    const state = pageOutcome(URL, { url: URL, markdown: 'plain text', status: 200 });
    expect(state.state === 'ready' && 'title' in state.chip).toBe(false);
    expect(urlChipText({ kind: 'url', url: URL }, state).label).toBe('example.com/guide');
  });

  test(`a long page is cut at ${FETCH_LIMIT_CHARS} characters with a line saying so, and its tooltip says so`, () => {
    const line = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(2);
    const markdown = Array.from({ length: 600 }, (_, i) => `${i} ${line}`).join('\n');
    const state = pageOutcome(URL, { url: URL, title: 'Long', markdown, status: 200 });
    if (state.state !== 'ready') throw new Error('expected a page');
    const text = state.chip.content ?? '';
    const last = text.split('\n').at(-1) ?? '';
    expect(last).toMatch(/^\[… page cut: \d+ more characters not shown \(the output is limited to 30000 characters\)\.\]$/);
    expect(text.length).toBeLessThanOrEqual(FETCH_LIMIT_CHARS + last.length + 2);
    expect(state.cut).toBeGreaterThan(0);
    expect(state.cut).toBe(markdown.trim().length - text.slice(0, text.lastIndexOf('\n\n[…')).length);
    const { tooltip, label } = urlChipText({ kind: 'url', url: URL }, state);
    expect(label).toBe('Long');
    expect(tooltip).toContain(`Page cut to its first 30,000 characters: ${state.cut.toLocaleString('en-US')} more are not attached.`);
    // A whole page says how much was attached instead.
    const whole = pageOutcome(URL, { url: URL, title: 'Short', markdown: 'x'.repeat(1234), status: 200 });
    expect(urlChipText({ kind: 'url', url: URL }, whole).tooltip).toBe(`Short\n${URL}\n1,234 characters attached.`);
  });

  test('a redirect is said in the tooltip; the chip keeps the address the user gave', () => {
    const state = pageOutcome(URL, { url: 'https://www.example.com/guide/', title: 'Guide', markdown: 'text', status: 200 });
    expect(state.state === 'ready' && state.chip.url).toBe(URL);
    expect(urlChipText({ kind: 'url', url: URL }, state).tooltip).toContain('Read from https://www.example.com/guide/');
  });

  test.each([
    [404, 'Not found (HTTP 404)'],
    [403, 'Access denied (HTTP 403)'],
    [500, 'Server error (HTTP 500)'],
    [503, 'Server error (HTTP 503)'],
    [418, 'Refused (HTTP 418)'],
  ])('HTTP %i is not attached: "%s"', (status, reason) => {
    expect(pageOutcome(URL, { url: URL, markdown: '', status })).toEqual({ state: 'error', reason, detail: `the server answered HTTP ${status}` });
  });

  test('a page with no text is not attached', () => {
    expect(pageOutcome(URL, { url: URL, title: 'Empty', markdown: ' \n ', status: 200 })).toMatchObject({ state: 'error', reason: 'The page has no text' });
  });

  test.each([
    [unsupportedContent('application/pdf; charset=binary'), 'Not a web page (application/pdf)'],
    [pageTooLarge(FETCH_MAX_BYTES + 1), 'Too big (over 5 MB)'],
    [pageTimeout(30_000), 'No answer after 30 s'],
    [new TypeError('Failed to fetch'), 'Could not connect'],
    ['net::ERR_NAME_NOT_RESOLVED', 'Could not connect'],
  ])('a fetch that threw (%s) gives "%s"', (error, reason) => {
    const state = fetchFailure(error);
    expect(state).toMatchObject({ state: 'error', reason });
    expect(state.state === 'error' && state.detail).toBe(error instanceof Error ? error.message : String(error));
  });

  test("a chip's label and tooltip: loading, failed (not sent), restored with its text", () => {
    const chip: UrlChip = { kind: 'url', url: URL };
    expect(urlChipText(chip, { state: 'loading' })).toEqual({ label: 'example.com/guide', tooltip: `Loading ${URL}…` });
    expect(urlChipText(chip, { state: 'error', reason: 'Not found (HTTP 404)', detail: 'the server answered HTTP 404' })).toEqual({
      label: 'Not found (HTTP 404): example.com/guide',
      tooltip: `Not attached: ${URL} could not be read (the server answered HTTP 404). It is not sent; remove it.`,
    });
    expect(urlChipText({ kind: 'url', url: URL, title: 'Guide', content: 'text' }, undefined)).toEqual({ label: 'Guide', tooltip: `Guide\n${URL}` });
    expect(shortUrl('https://example.com/')).toBe('example.com');
  });
});

describe("Obsidian's fetchPage (requestUrl + htmlToMarkdown) against a local server", () => {
  let server: Server;
  let base: string;
  let hits = 0;
  const big = 'a'.repeat(FETCH_MAX_BYTES + 10);

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      switch (req.url) {
        case '/page.html':
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          res.end('<!doctype html><html><head><title>Vent &amp; guide</title><script>var x = 1;</script></head><body><nav>Menu</nav><p>Open the roof vents at 24 °C.</p></body></html>');
          return;
        case '/notes.txt':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('Line one.  \n\n\n\nLine two.');
          return;
        case '/file.pdf':
          res.writeHead(200, { 'content-type': 'application/pdf' });
          res.end('%PDF-1.7 \u0000\u0001');
          return;
        case '/big.html':
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(big);
          return;
        case '/slow.html':
          return; // never answers
        default:
          res.writeHead(404, { 'content-type': 'text/html' });
          res.end('<title>Not found</title>');
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  });

  const outcome = async (path: string, timeoutMs?: number): Promise<PageState> => {
    const url = `${base}${path}`;
    try {
      return pageOutcome(url, await fetchPage(url, new AbortController().signal, timeoutMs));
    } catch (error) {
      return fetchFailure(error);
    }
  };

  test('an HTML page: its title, its text without scripts or menus', async () => {
    const state = await outcome('/page.html');
    expect(state).toMatchObject({ state: 'ready', chip: { kind: 'url', url: `${base}/page.html`, title: 'Vent & guide' } });
    const text = state.state === 'ready' ? (state.chip.content ?? '') : '';
    expect(text).toContain('Open the roof vents at 24 °C.');
    expect(text).not.toContain('var x');
    expect(text).not.toContain('Menu');
  });

  test('a text page as it is (tidied)', async () => {
    expect(await outcome('/notes.txt')).toMatchObject({ state: 'ready', chip: { content: 'Line one.\n\nLine two.' } });
  });

  test('404, not a web page, too big, no answer', async () => {
    expect(await outcome('/missing.html')).toMatchObject({ state: 'error', reason: 'Not found (HTTP 404)' });
    expect(await outcome('/file.pdf')).toMatchObject({ state: 'error', reason: 'Not a web page (application/pdf)' });
    expect(await outcome('/big.html')).toMatchObject({ state: 'error', reason: 'Too big (over 5 MB)' });
    expect(await outcome('/slow.html', 1000)).toMatchObject({ state: 'error', reason: 'No answer after 1 s' });
  });

  test('no server there: could not connect', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    let state: PageState;
    try {
      state = pageOutcome('x', await fetchPage(`http://127.0.0.1:${port}/`, new AbortController().signal, 5000));
    } catch (error) {
      state = fetchFailure(error);
    }
    expect(state).toMatchObject({ state: 'error', reason: 'Could not connect' });
    expect(hits).toBeGreaterThan(0);
  });
});
