/**
 * The workbench's HTTP server: the page, its bundles, the plugin bundle and styles, a JSON API over
 * a vault folder on disk (what the shim's Vault and DataAdapter call) and a same-origin proxy from
 * `/provider/*` to the local provider server. Node's `http`, no framework.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync, promises as fs } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { buildPage, buildPlugin, CACHE_DIR, PROJECT_ROOT } from './build';

export interface WorkbenchServerOptions {
  /** The vault folder the page works on (the server writes to it). */
  vaultDir: string;
  /** Base URL of the provider server that `/provider/*` forwards to; null disables the proxy. */
  providerUrl?: string | null;
  port?: number;
  host?: string;
  /** Note opened in the pane at start (vault path); default: the first note by path. */
  openNote?: string;
  /** Initial content of app.secretStorage (kept in server memory, never written to the vault). */
  secrets?: Record<string, string>;
  /** Plugin bundle to serve instead of building src/main.ts (e.g. a release main.js). */
  pluginBundle?: string;
}

export interface WorkbenchServer {
  url: string;
  vaultDir: string;
  /** Current secret storage content (what the page has set). */
  secrets: Record<string, string>;
  close(): Promise<void>;
}

interface Entry {
  path: string;
  kind: 'file' | 'folder';
  size: number;
  mtime: number;
  ctime: number;
  content?: string;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const INDEX_HTML = (theme: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Strata workbench</title>
<link rel="stylesheet" href="/workbench.css">
<link rel="stylesheet" href="/plugin/styles.css">
</head>
<body class="theme-${theme}">
<script src="/workbench.js"></script>
</body>
</html>
`;

function send(res: ServerResponse, status: number, body: string | Buffer, type: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function statOf(s: { isDirectory(): boolean; size: number; mtimeMs: number; birthtimeMs: number; ctimeMs: number }) {
  return { type: s.isDirectory() ? 'folder' : 'file', size: s.size, mtime: Math.round(s.mtimeMs), ctime: Math.round(s.birthtimeMs || s.ctimeMs) };
}

export async function startWorkbenchServer(options: WorkbenchServerOptions): Promise<WorkbenchServer> {
  const vaultDir = resolve(options.vaultDir);
  if (!existsSync(vaultDir)) throw new Error(`Vault folder does not exist: ${vaultDir}`);
  const secrets: Record<string, string> = { ...(options.secrets ?? {}) };
  const manifest = JSON.parse(await fs.readFile(join(PROJECT_ROOT, 'manifest.json'), 'utf8')) as { id: string };

  /** Resolves a vault-relative path, refusing anything that escapes the vault. */
  const inVault = (rel: string | null): string => {
    if (rel === null) throw new HttpError(400, 'Missing path');
    const clean = rel === '/' ? '' : rel;
    if (clean.startsWith('/') || clean.split('/').includes('..') || clean.includes('\\') || clean.includes('\0')) throw new HttpError(400, `Invalid vault path: ${rel}`);
    const abs = resolve(vaultDir, clean);
    if (abs !== vaultDir && !abs.startsWith(vaultDir + sep)) throw new HttpError(400, `Path escapes the vault: ${rel}`);
    return abs;
  };

  const listVault = async (): Promise<Entry[]> => {
    const out: Entry[] = [];
    const walk = async (dir: string): Promise<void> => {
      const names = (await fs.readdir(dir)).sort();
      for (const name of names) {
        if (name.startsWith('.')) continue; // The config folder and trash are hidden, as in Obsidian.
        const abs = join(dir, name);
        const s = await fs.stat(abs);
        const path = relative(vaultDir, abs).split(sep).join('/');
        const st = statOf(s);
        if (s.isDirectory()) {
          out.push({ path, kind: 'folder', size: 0, mtime: st.mtime, ctime: st.ctime });
          await walk(abs);
        } else {
          const entry: Entry = { path, kind: 'file', size: st.size, mtime: st.mtime, ctime: st.ctime };
          if (name.endsWith('.md')) entry.content = await fs.readFile(abs, 'utf8');
          out.push(entry);
        }
      }
    };
    await walk(vaultDir);
    return out;
  };

  // Writes to one path run one after another and land whole (temp file + rename): two overlapping
  // saveData calls once tore data.json ("non-whitespace after JSON") in the settings browser test.
  const writes = new Map<string, Promise<unknown>>();
  let writeCount = 0;
  const writeInOrder = (abs: string, body: string): Promise<ReturnType<typeof statOf>> => {
    const run = async (): Promise<ReturnType<typeof statOf>> => {
      const temp = `${abs}.strata-write-${++writeCount}`;
      await fs.writeFile(temp, body, 'utf8');
      await fs.rename(temp, abs);
      return statOf(await fs.stat(abs));
    };
    const next = (writes.get(abs) ?? Promise.resolve()).then(run, run);
    writes.set(abs, next);
    void next.finally(() => {
      if (writes.get(abs) === next) writes.delete(abs);
    }).catch(() => undefined);
    return next;
  };

  const api = async (route: string, req: IncomingMessage, res: ServerResponse, q: URLSearchParams): Promise<void> => {
    const method = req.method ?? 'GET';
    switch (`${method} ${route}`) {
      case 'GET boot': {
        json(res, 200, { vaultName: basename(vaultDir), files: await listVault(), secrets, manifest, openNote: options.openNote ?? null });
        return;
      }
      case 'GET fs/read': {
        const abs = inVault(q.get('path'));
        const s = await fs.stat(abs).catch(() => null);
        if (!s || s.isDirectory()) throw new HttpError(404, `File not found: ${q.get('path')}`);
        json(res, 200, { content: await fs.readFile(abs, 'utf8'), stat: statOf(s) });
        return;
      }
      case 'GET fs/raw': {
        const abs = inVault(q.get('path'));
        send(res, 200, await fs.readFile(abs), 'application/octet-stream');
        return;
      }
      case 'GET fs/stat': {
        const s = await fs.stat(inVault(q.get('path'))).catch(() => null);
        json(res, 200, s ? statOf(s) : null);
        return;
      }
      case 'GET fs/list': {
        const rel = q.get('path') ?? '';
        const abs = inVault(rel);
        const files: string[] = [];
        const folders: string[] = [];
        for (const d of await fs.readdir(abs, { withFileTypes: true })) {
          const p = rel && rel !== '/' ? `${rel}/${d.name}` : d.name;
          (d.isDirectory() ? folders : files).push(p);
        }
        json(res, 200, { files: files.sort(), folders: folders.sort() });
        return;
      }
      case 'PUT fs/write': {
        const abs = inVault(q.get('path'));
        const mode = q.get('mode') ?? 'overwrite';
        const exists = existsSync(abs);
        if (mode === 'create' && exists) throw new HttpError(409, 'File already exists.');
        if (mode === 'modify' && !exists) throw new HttpError(404, `File not found: ${q.get('path')}`);
        if (mode === 'overwrite') await fs.mkdir(dirname(abs), { recursive: true });
        else if (!existsSync(dirname(abs))) throw new HttpError(404, `Folder does not exist: ${dirname(q.get('path') ?? '')}`);
        const body = await readBody(req);
        json(res, 200, await writeInOrder(abs, body));
        return;
      }
      case 'POST fs/mkdir': {
        const abs = inVault(q.get('path'));
        await fs.mkdir(abs, { recursive: true });
        json(res, 200, statOf(await fs.stat(abs)));
        return;
      }
      case 'POST fs/trash': {
        const abs = inVault(q.get('path'));
        if (!existsSync(abs)) throw new HttpError(404, `Not found: ${q.get('path')}`);
        const trash = join(vaultDir, '.trash');
        await fs.mkdir(trash, { recursive: true });
        let target = join(trash, basename(abs));
        for (let i = 1; existsSync(target); i++) target = join(trash, `${basename(abs)} ${i}`);
        await fs.rename(abs, target);
        json(res, 200, null);
        return;
      }
      case 'POST fs/remove': {
        await fs.rm(inVault(q.get('path')), { recursive: true, force: true });
        json(res, 200, null);
        return;
      }
      case 'POST fs/rename': {
        const from = inVault(q.get('from'));
        const to = inVault(q.get('to'));
        if (!existsSync(from)) throw new HttpError(404, `Not found: ${q.get('from')}`);
        if (existsSync(to)) throw new HttpError(409, 'Destination file already exists!');
        await fs.mkdir(dirname(to), { recursive: true });
        await fs.rename(from, to);
        json(res, 200, statOf(await fs.stat(to)));
        return;
      }
      case 'PUT secrets': {
        const value = JSON.parse(await readBody(req)) as unknown;
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(400, 'Expected an object of secrets');
        for (const k of Object.keys(secrets)) delete secrets[k];
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (typeof v === 'string') secrets[k] = v;
        json(res, 200, null);
        return;
      }
      default:
        throw new HttpError(404, `No API route ${method} ${route}`);
    }
  };

  const proxy = (req: IncomingMessage, res: ServerResponse, rest: string): void => {
    if (!options.providerUrl) {
      json(res, 502, { error: { message: 'The workbench has no provider server (start it with the provider server module present)' } });
      return;
    }
    const target = new URL(rest, options.providerUrl.endsWith('/') ? options.providerUrl : `${options.providerUrl}/`);
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.origin;
    delete headers.referer;
    const upstream = httpRequest(target, { method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      // An upstream response that breaks off (a cut stream) must break the page's response too:
      // pipe() only ends `res` on a clean end, so the page's fetch would wait for more forever.
      up.on('close', () => {
        if (!up.complete) res.destroy();
      });
    });
    upstream.on('error', (e) => {
      if (!res.headersSent) json(res, 502, { error: { message: `Provider server unreachable: ${e.message}` } });
      else res.destroy();
    });
    // A client that stops reading (the user pressed stop) aborts the upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://workbench');
    const path = url.pathname;
    try {
      if (path.startsWith('/provider/')) {
        proxy(req, res, path.slice('/provider/'.length) + url.search);
        return;
      }
      if (path.startsWith('/api/')) {
        await api(path.slice('/api/'.length), req, res, url.searchParams);
        return;
      }
      if (path === '/' || path === '/index.html') {
        send(res, 200, INDEX_HTML(url.searchParams.get('theme') === 'dark' ? 'dark' : 'light'), 'text/html; charset=utf-8');
        return;
      }
      if (path === '/workbench.js') {
        const page = await buildPage();
        if (!page.path) throw new HttpError(500, page.error ?? 'page build failed');
        send(res, 200, await fs.readFile(page.path), 'text/javascript; charset=utf-8');
        return;
      }
      if (path === '/workbench.css') {
        send(res, 200, await fs.readFile(join(PROJECT_ROOT, 'workbench/page/workbench.css')), 'text/css; charset=utf-8');
        return;
      }
      if (path === '/plugin/styles.css') {
        const css = join(PROJECT_ROOT, 'styles.css');
        send(res, 200, existsSync(css) ? await fs.readFile(css) : '', 'text/css; charset=utf-8');
        return;
      }
      if (path === '/plugin/main.js') {
        let code: string;
        if (options.pluginBundle) code = await fs.readFile(options.pluginBundle, 'utf8');
        else {
          const built = await buildPlugin();
          if (!built.path) {
            send(res, 200, `window.__workbenchPluginBuildError = ${JSON.stringify(built.error ?? 'unknown error')};`, 'text/javascript; charset=utf-8');
            return;
          }
          code = await fs.readFile(built.path, 'utf8');
        }
        // Obsidian evaluates main.js as a CommonJS function body; so does the page.
        send(res, 200, `window.__workbenchPluginFactory = function (require, module, exports) {${code}\n};\n`, 'text/javascript; charset=utf-8');
        return;
      }
      const map = /^\/(?:plugin\/)?(plugin-main|workbench-page)\.js\.map$/.exec(path);
      if (map) {
        send(res, 200, await fs.readFile(join(CACHE_DIR, `${map[1]}.js.map`)), 'application/json');
        return;
      }
      // Sample web pages for a URL attached with `@` (same-origin: the shim's requestUrl is the page's fetch).
      const web = /^\/web\/([\w.-]+)$/.exec(path);
      if (web && req.method === 'GET') {
        const file = join(PROJECT_ROOT, 'workbench/web', web[1]);
        if (web[1].startsWith('.') || !existsSync(file)) {
          send(res, 404, `<!doctype html><title>Not found</title><p>No page ${web[1]} here.</p>`, 'text/html; charset=utf-8');
          return;
        }
        const type = /\.html?$/.test(file) ? 'text/html; charset=utf-8' : /\.(?:txt|md)$/.test(file) ? 'text/plain; charset=utf-8' : 'application/octet-stream';
        send(res, 200, await fs.readFile(file), type);
        return;
      }
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      throw new HttpError(404, `Not found: ${path}`);
    } catch (e) {
      const status = e instanceof HttpError ? e.status : 500;
      if (!res.headersSent) json(res, status, { error: e instanceof Error ? e.message : String(e) });
      else res.destroy();
    }
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    vaultDir,
    secrets,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
