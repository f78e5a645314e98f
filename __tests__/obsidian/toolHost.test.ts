/**
 * The agent's tool host in Obsidian (issue 14), over the workbench's shim of the obsidian module:
 * the open note from the workspace, backlinks from metadataCache.resolvedLinks, pages through
 * requestUrl and htmlToMarkdown, notes through ObsidianVaultReader.
 */
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { Platform, type App } from 'obsidian';
import { FsVault } from '../../src/node/fsVault';
import { desktopNodeNet, fetchPage, obsidianToolHost } from '../../src/obsidian/toolHost';
import { guardedGet, type DnsLike, type NodeNet } from '../../src/obsidian/guardedFetch';
import type { FetchedPage } from '../../src/core/ports/toolHost';
import { FETCH_MAX_BYTES } from '../../src/core/agent/webPage';
import { SourceCatalog } from '../../src/core/agent/sourceCatalog';
import { AGENT_TOOLS, runToolCall } from '../../src/core/agent/toolbox';
import type { ToolHost } from '../../src/core/ports/toolHost';
import { Vault } from '../../workbench/shim/vault';
import { MetadataCache } from '../../workbench/shim/metadata';
import type { FileEntry } from '../../workbench/shim/api';
import type { TFile } from '../../workbench/shim/files';

const VAULT = path.join(__dirname, '..', 'core', 'agent', 'fixtures', 'vault');

async function shimApp(active: string | null): Promise<App> {
  const paths = await new FsVault(VAULT).listMarkdown();
  const folders = [...new Set(paths.flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))))];
  const entries: FileEntry[] = [
    ...folders.map((p): FileEntry => ({ path: p, kind: 'folder', size: 0, mtime: 0, ctime: 0 })),
    ...paths.map((p): FileEntry => {
      const content = readFileSync(path.join(VAULT, p), 'utf8');
      return { path: p, kind: 'file', size: content.length, mtime: 1, ctime: 1, content };
    }),
  ];
  const vault = new Vault('fixture', entries);
  const metadataCache = new MetadataCache(vault);
  const workspace = { getActiveFile: (): TFile | null => (active === null ? null : vault.getFileByPath(active)) };
  return { vault, metadataCache, workspace } as unknown as App;
}

async function run(host: ToolHost, name: string, args: Record<string, unknown>): Promise<{ content: string; isError: boolean }> {
  return runToolCall({ id: 'c', name, args }, AGENT_TOOLS, { host, signal: new AbortController().signal, sources: new SourceCatalog() });
}

test('the shim resolves links into resolvedLinks as Obsidian does (links and embeds, #heading stripped, code left out)', async () => {
  const app = await shimApp(null);
  expect(app.metadataCache.resolvedLinks['Home.md']).toEqual({ 'Garden/Tomatoes.md': 1, 'Garden/Compost.md': 1, 'Garden/Seed list.md': 1 });
  expect(app.metadataCache.resolvedLinks['Garden/Compost.md']).toEqual({ 'Garden/Tomatoes.md': 1 });
  expect(app.metadataCache.resolvedLinks['Projects/Greenhouse plan.md']).toEqual({ 'Garden/Tomatoes.md': 1, 'Projects/Notes/Meeting.md': 1 });
});

test('backlinks from resolvedLinks, the note itself and the chat folder left out; the active note; a note that is not open', async () => {
  const host = obsidianToolHost(await shimApp('Garden/Compost.md'), { search: () => null, hidden: ['Strata'] });
  // The host gives every source (the note itself and the chat included); the tool leaves those out.
  expect(await host.backlinks?.('Garden/Tomatoes.md')).toEqual([
    'Garden/Compost.md',
    'Garden/Tomatoes.md',
    'Home.md',
    'Kitchen/Passata.md',
    'Projects/Greenhouse plan.md',
    'Strata/Chat about tomatoes.md',
  ]);
  const backlinks = await run(host, 'getBacklinks', { path: 'Tomatoes' });
  expect(backlinks.isError).toBe(false);
  expect(backlinks.content.split('\n')).toEqual([
    '4 notes link to Garden/Tomatoes.md:',
    '- Garden/Compost.md (line 5): Spent plants go here, except diseased ones (see [[Tomatoes#Pests]]).',
    '- Home.md (line 3): Start here. The vegetable patch lives in [[Tomatoes]] and [[Garden/Compost|the compost notes]].',
    '- Kitchen/Passata.md (line 7): The harvest from [[Tomatoes]] fills about twelve jars.',
    '- Projects/Greenhouse plan.md (line 14): Early [[Tomatoes]] and peppers; see also [[Meeting]].',
  ]);
  expect((await run(host, 'getActiveNote', {})).content.split('\n').slice(0, 2)).toEqual(['The note open in the editor is Garden/Compost.md.', 'Garden/Compost.md (lines 1-5 of 5)']);
  const none = obsidianToolHost(await shimApp(null), { search: () => null });
  expect(await run(none, 'getActiveNote', {})).toEqual({ callId: 'c', name: 'getActiveNote', content: 'No note is open in the editor.', isError: false });
});

describe('fetchUrl through requestUrl and htmlToMarkdown', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/page') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html><head><title>Pruning</title><script>x()</script></head><body><h1>Pruning</h1><p>Pinch the side shoots.</p></body></html>');
      } else if (req.url === '/huge') {
        // A declared length over the limit (the body is sent too: requestUrl reads it whole anyway).
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(FETCH_MAX_BYTES + 1) });
        res.end('x'.repeat(FETCH_MAX_BYTES + 1));
      } else if (req.url === '/latin1') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
        res.end(Buffer.from('Crème brûlée', 'latin1'));
      } else if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('the first words, then nothing');
      } else if (req.url === '/file.bin') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.from([0, 1, 2]));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('a page, a 404 and a binary', async () => {
    // The test server is local: the setting lets the agent read it.
    const host = obsidianToolHost(await shimApp(null), { search: () => null, allowLocalAddresses: () => true });
    // The Node shim's htmlToMarkdown is text only (as the page shim's); Obsidian's keeps the markdown.
    expect((await run(host, 'fetchUrl', { url: `${base}/page` })).content).toBe(`# Pruning\nSource: ${base}/page\n\nPruning\n\nPinch the side shoots.`);
    expect(await run(host, 'fetchUrl', { url: `${base}/gone` })).toMatchObject({ isError: true, content: `Error: fetching ${base}/gone failed: the server answered HTTP 404.` });
    expect((await run(host, 'fetchUrl', { url: `${base}/file.bin` })).content).toMatch(/^Error: could not fetch .*content type application\/octet-stream/);
  });

  test("the agent cannot read a local address by default (issue 26); a page attached with @ (fetchPage) is the user's choice", async () => {
    const host = obsidianToolHost(await shimApp(null), { search: () => null });
    const port = new URL(base).port;
    for (const url of [`${base}/page`, `http://localhost:${port}/page`, `http://2130706433:${port}/page`, `http://0x7f.1:${port}/page`, `http://[::ffff:127.0.0.1]:${port}/page`]) {
      const result = await run(host, 'fetchUrl', { url });
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/refused: .* is (a loopback address|a local name \(\.localhost\)); the agent fetches only public web addresses/);
    }
    // The host itself refuses too (a caller other than the tool).
    await expect(host.fetchUrl?.(`${base}/page`, new AbortController().signal)).rejects.toThrow(/refused: .* is a loopback address/);
    expect((await fetchPage(`${base}/page`, new AbortController().signal)).markdown).toBe('Pruning\n\nPinch the side shoots.');
  });

  test('a body whose content-length is over the limit is refused before it is read', async () => {
    await expect(fetchPage(`${base}/huge`, new AbortController().signal)).rejects.toThrow(`the page is too large (${FETCH_MAX_BYTES + 1} bytes; at most ${FETCH_MAX_BYTES} are read)`);
  });

  test('a page in a charset other than utf-8 is decoded in it', async () => {
    expect((await fetchPage(`${base}/latin1`, new AbortController().signal)).markdown).toBe('Crème brûlée');
  });

  describe('on desktop (Node there) the agent fetches through the guarded GET', () => {
    const realNet: NodeNet = { dns, http, https };
    /** A dns whose every name resolves to 127.0.0.1: only a host that resolves names itself can see it. */
    const toLoopback: DnsLike = { lookup: (_name, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]) };

    test('the same pages, 404 and binary as requestUrl gives', async () => {
      const host = obsidianToolHost(await shimApp(null), { search: () => null, allowLocalAddresses: () => true, nodeNet: () => realNet });
      expect((await run(host, 'fetchUrl', { url: `${base}/page` })).content).toBe(`# Pruning\nSource: ${base}/page\n\nPruning\n\nPinch the side shoots.`);
      expect(await run(host, 'fetchUrl', { url: `${base}/gone` })).toMatchObject({ isError: true, content: `Error: fetching ${base}/gone failed: the server answered HTTP 404.` });
      expect((await run(host, 'fetchUrl', { url: `${base}/file.bin` })).content).toMatch(/^Error: could not fetch .*content type application\/octet-stream/);
      expect((await host.fetchUrl?.(`${base}/latin1`, new AbortController().signal))?.markdown).toBe('Crème brûlée');
    });

    test('a public-looking name that resolves to loopback is refused (requestUrl would not see it)', async () => {
      const port = new URL(base).port;
      const host = obsidianToolHost(await shimApp(null), { search: () => null, nodeNet: () => ({ ...realNet, dns: toLoopback }) });
      const result = await run(host, 'fetchUrl', { url: `http://pages.example:${port}/page` });
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/refused: http:\/\/pages\.example:\d+\/page is a name that resolves to 127\.0\.0\.1, a loopback address; the agent fetches only public web addresses/);
      // The loopback address as written is refused as before.
      expect((await run(host, 'fetchUrl', { url: `${base}/page` })).content).toMatch(/refused: .* is a loopback address/);
    });

    test('desktopNodeNet: Node modules through window.require on the desktop app only; the host picks them by default', async () => {
      const holder = globalThis as { window?: unknown };
      const required: string[] = [];
      const desktop = Platform.isDesktopApp;
      try {
        holder.window = { require: (id: string) => (required.push(id), id === 'dns' ? toLoopback : id === 'http' ? http : id === 'zlib' ? zlib : https) };
        Platform.isDesktopApp = false; // Mobile, or a browser: requestUrl.
        expect(desktopNodeNet()).toBeNull();
        Platform.isDesktopApp = true;
        expect(desktopNodeNet()).toEqual({ dns: toLoopback, http, https, zlib });
        const port = new URL(base).port;
        const host = obsidianToolHost(await shimApp(null), { search: () => null });
        expect((await run(host, 'fetchUrl', { url: `http://pages.example:${port}/page` })).content).toMatch(/is a name that resolves to 127\.0\.0\.1, a loopback address/);
        holder.window = {}; // The desktop flag without Node: requestUrl.
        expect(desktopNodeNet()).toBeNull();
        expect(required).toEqual(['dns', 'http', 'https', 'zlib', 'dns', 'http', 'https', 'zlib']);
      } finally {
        Platform.isDesktopApp = desktop;
        delete holder.window;
      }
    });

    describe('a failure of Node\'s networking falls back to requestUrl; a refusal, an HTTP error, a stop or the timeout never does', () => {
      // A test-only self-signed key pair (fixtures/test-only-tls/README.md): Node trusts nothing that signed it.
      const TLS = path.join(__dirname, 'fixtures', 'test-only-tls');
      let tlsServer: https.Server;
      let tlsBase: string;
      let deadBase: string;
      beforeAll(async () => {
        tlsServer = https.createServer({ key: readFileSync(path.join(TLS, 'key.pem')), cert: readFileSync(path.join(TLS, 'cert.pem')) }, (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html><head><title>Intranet</title></head><body><p>Behind the company root.</p></body></html>');
        });
        await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
        tlsBase = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
        // A port nothing listens on: opened, then closed.
        const dead = http.createServer();
        await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
        deadBase = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
        await new Promise<void>((resolve) => dead.close(() => resolve()));
      });
      afterAll(async () => {
        tlsServer.closeAllConnections();
        await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
      });

      /** The real requestUrl path (fetchPage over the shim's requestUrl, i.e. Node's fetch in jest), each call recorded. */
      function watchedRequestUrl() {
        const calls: string[] = [];
        const fetch = (url: string, signal: AbortSignal, timeoutMs: number): Promise<FetchedPage> => {
          calls.push(url);
          return fetchPage(url, signal, timeoutMs);
        };
        return { calls, fetch };
      }
      const zlibNet: NodeNet = { dns, http, https, zlib };

      test('a certificate Node does not trust goes to requestUrl', async () => {
        // In Obsidian, Chromium's requestUrl would trust a company root in the OS store; in jest the
        // shim's requestUrl is Node's fetch, which trusts it no more than Node's https: its own error
        // comes back ("fetch failed", not Node's certificate code), which shows the path taken.
        const watched = watchedRequestUrl();
        const host = obsidianToolHost(await shimApp(null), { search: () => null, allowLocalAddresses: () => true, nodeNet: () => zlibNet, requestUrlFetch: watched.fetch });
        expect((await run(host, 'fetchUrl', { url: `${tlsBase}/page` })).content).toBe(`Error: could not fetch ${tlsBase}/page: fetch failed`);
        expect(watched.calls).toEqual([`${tlsBase}/page`]);
        // What Node said first: the certificate, a network failure (NodeNetworkError).
        await expect(guardedGet(zlibNet, `${tlsBase}/page`, new AbortController().signal, 30_000, () => true)).rejects.toMatchObject({
          name: 'NodeNetworkError',
          code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
          url: `${tlsBase}/page`,
          addresses: null,
        });
      });

      test('a refused connection and a name Node cannot resolve go to requestUrl (which fails here too: nothing listens)', async () => {
        const watched = watchedRequestUrl();
        const host = obsidianToolHost(await shimApp(null), { search: () => null, allowLocalAddresses: () => true, nodeNet: () => zlibNet, requestUrlFetch: watched.fetch });
        const refused = await run(host, 'fetchUrl', { url: `${deadBase}/page` });
        expect(refused.isError).toBe(true);
        expect(refused.content).toMatch(/fetch failed/); // the shim's requestUrl (fetch), not Node's ECONNREFUSED
        const unresolved: DnsLike = { lookup: (name, _options, callback) => callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' }), []) };
        const offline = obsidianToolHost(await shimApp(null), { search: () => null, nodeNet: () => ({ ...zlibNet, dns: unresolved }), requestUrlFetch: watched.fetch });
        await expect(offline.fetchUrl?.('http://intranet.example/wiki', new AbortController().signal)).rejects.toThrow();
        expect(watched.calls).toEqual([`${deadBase}/page`, 'http://intranet.example/wiki']);
      });

      test('never for a local address refused, a 404, a stop or the timeout', async () => {
        const watched = watchedRequestUrl();
        const strict = obsidianToolHost(await shimApp(null), { search: () => null, nodeNet: () => ({ ...zlibNet, dns: toLoopback }), requestUrlFetch: watched.fetch });
        expect((await run(strict, 'fetchUrl', { url: `${base}/page` })).content).toMatch(/refused: .* is a loopback address/);
        expect((await run(strict, 'fetchUrl', { url: `http://pages.example:${new URL(base).port}/page` })).content).toMatch(/is a name that resolves to 127\.0\.0\.1/);
        const open = obsidianToolHost(await shimApp(null), { search: () => null, allowLocalAddresses: () => true, fetchTimeoutMs: 800, nodeNet: () => zlibNet, requestUrlFetch: watched.fetch });
        expect(await run(open, 'fetchUrl', { url: `${base}/gone` })).toMatchObject({ isError: true, content: `Error: fetching ${base}/gone failed: the server answered HTTP 404.` });
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        await expect(open.fetchUrl?.(`${base}/slow`, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
        await expect(open.fetchUrl?.(`${base}/slow`, new AbortController().signal)).rejects.toThrow('no answer after 1 s');
        expect(watched.calls).toEqual([]);
      });
    });
  });
});
