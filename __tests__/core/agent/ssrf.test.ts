/**
 * Issue 26, finding 3: the agent's fetchUrl cannot read local services. Every spelling of a local
 * address goes through the real tool, the Node host and the global fetch against a real loopback
 * server (each one reaches it when local addresses are allowed, so a refusal is the guard's doing);
 * names resolve through a stubbed resolver where the test needs a public address.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost, MAX_REDIRECTS, type FsToolHostOptions } from '../../../src/node/toolHost';
import { SourceCatalog } from '../../../src/core/agent/sourceCatalog';
import { AGENT_TOOLS, runToolCall } from '../../../src/core/agent/toolbox';
import { localHostReason } from '../../../src/core/net/localAddress';
import { loadSettings } from '../../../src/core/settings/settings';

const VAULT = path.join(__dirname, 'fixtures', 'vault');
const SECRET = 'router admin password: hunter2';

let server: http.Server;
let v6: http.Server | null = null;
let port = 0;
let v6Port = 0;
let publicBase = '';

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = req.url ?? '/';
  if (url.startsWith('/to/')) {
    res.writeHead(302, { location: decodeURIComponent(url.slice(4)) });
    res.end();
  } else if (url.startsWith('/loop/')) {
    const n = Number(url.slice(6));
    res.writeHead(301, { location: `/loop/${n + 1}` });
    res.end();
  } else {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`${SECRET}\n`);
  }
}

beforeAll(async () => {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  publicBase = `http://public.example:${port}`;
  const six = http.createServer(handler);
  v6 = await new Promise<http.Server | null>((resolve) => {
    six.once('error', () => resolve(null));
    six.listen(0, '::1', () => resolve(six));
  });
  if (v6) v6Port = (v6.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (v6) await new Promise<void>((resolve) => v6?.close(() => resolve()));
});

/** A resolver that knows two public-looking names and one that points inside; others go to the system's. */
const NAMES: Record<string, string[]> = { 'public.example': ['93.184.216.34'], 'intranet.example.com': ['93.184.216.35', '10.0.0.5'], 'metadata.example.com': ['::ffff:169.254.169.254'] };
const resolveHost = async (name: string): Promise<readonly string[]> => {
  const known = NAMES[name];
  if (known) return known;
  const { lookup } = await import('node:dns/promises');
  return (await lookup(name, { all: true })).map((a) => a.address);
};
/** The network as the stub resolver sees it: the public-looking names are served by the loopback server. */
const stubbedFetch: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.hostname in NAMES) {
    url.hostname = '127.0.0.1';
  }
  return fetch(url.href, init);
};

async function fetchUrl(url: string, options: Partial<FsToolHostOptions> = {}): Promise<{ content: string; isError: boolean }> {
  const host = fsToolHost({ vault: new FsVault(VAULT), search: null, resolveHost, fetch: stubbedFetch, ...options });
  return runToolCall({ id: 'c', name: 'fetchUrl', args: { url } }, AGENT_TOOLS, { host, signal: new AbortController().signal, sources: new SourceCatalog() });
}

// Spellings of this machine that reach the loopback server when allowed.
const LOOPBACK = (p: number) => [
  `http://127.0.0.1:${p}/`,
  `http://localhost:${p}/`,
  `http://2130706433:${p}/`,
  `http://0x7f.1:${p}/`,
  `http://0x7f000001:${p}/`,
  `http://0177.0.0.1:${p}/`,
  `http://127.1:${p}/`,
  `http://127.0.0.1.:${p}/`,
  `http://[::ffff:127.0.0.1]:${p}/`,
  `http://[::ffff:7f00:1]:${p}/`,
  `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
  `HTTP://LOCALHOST:${p}/`,
];
// Other local spellings (nothing listens there; they must be refused before any connection).
const OTHER_LOCAL = [
  'http://[::1]/',
  'http://[::]/',
  'http://0.0.0.0/',
  'http://0/',
  'http://[fe80::1]/',
  'http://[fd00::1]/',
  'http://[fc00::abcd]/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[::ffff:169.254.169.254]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://100.127.255.254/',
  'http://224.0.0.1/',
  'http://239.255.255.250/',
  'http://255.255.255.255/',
  'http://[ff02::1]/',
  'http://localhost./',
  'http://a.localhost/',
  'http://admin.localhost./',
  'http://printer.local/',
  'http://nas.local./',
  'http://metadata.google.internal/',
  'http://router/',
];

describe('fetchUrl refuses local addresses (issue 26)', () => {
  test.each(LOOPBACK(0).map((_, i) => i))('loopback spelling %#, against a real loopback server', async (i) => {
    const url = LOOPBACK(port)[i];
    const refused = await fetchUrl(url);
    expect(refused.isError).toBe(true);
    expect(refused.content).toMatch(/^Error: could not fetch .*: refused: .* is (a loopback address|a local name \(\.localhost\)); the agent fetches only public web addresses/);
    expect(refused.content).not.toContain(SECRET);
    // The same address does reach the server when the setting allows it: the refusal is the guard's.
    const allowed = await fetchUrl(url, { allowLocalAddresses: true });
    expect([allowed.isError, allowed.content]).toEqual([false, expect.stringContaining(SECRET)]);
  });

  test('[::1] against a real IPv6 loopback server', async () => {
    if (!v6) return; // No IPv6 loopback on this machine: the spelling is still refused below.
    const url = `http://[::1]:${v6Port}/`;
    expect((await fetchUrl(url)).content).toMatch(/refused: .* is a loopback address/);
    expect((await fetchUrl(url, { allowLocalAddresses: true })).content).toContain(SECRET);
  });

  test.each(OTHER_LOCAL)('%s is refused', async (url) => {
    const result = await fetchUrl(url);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/refused: .* is (a|an) [^;]+; the agent fetches only public web addresses \(a setting allows local addresses\)$/);
  });

  test('a public-looking name (stubbed resolver) is fetched; names resolving to local addresses are refused', async () => {
    expect(await fetchUrl(`${publicBase}/page`)).toEqual({ callId: 'c', name: 'fetchUrl', isError: false, content: `# ${publicBase}/page\nSource: ${publicBase}/page\n\n${SECRET}` });
    expect((await fetchUrl(`http://intranet.example.com:${port}/`)).content).toBe(
      `Error: could not fetch http://intranet.example.com:${port}/: refused: http://intranet.example.com:${port}/ is a name that resolves to 10.0.0.5, a private address; the agent fetches only public web addresses (a setting allows local addresses)`,
    );
    expect((await fetchUrl(`http://metadata.example.com:${port}/`)).content).toMatch(/resolves to ::ffff:169\.254\.169\.254, a link-local address/);
  });

  test('every redirect hop is checked: a public page redirecting to loopback, to a local name, to a name resolving inside', async () => {
    for (const target of [`http://127.0.0.1:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://2130706433:${port}/`, `http://localhost:${port}/`, `http://intranet.example.com:${port}/`]) {
      const result = await fetchUrl(`${publicBase}/to/${encodeURIComponent(target)}`);
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/refused: /);
      expect(result.content).not.toContain(SECRET);
    }
    // A redirect to a public page is followed (relative and absolute).
    expect((await fetchUrl(`${publicBase}/to/${encodeURIComponent('/final')}`)).content).toBe(`# ${publicBase}/final\nSource: ${publicBase}/final\n\n${SECRET}`);
    expect((await fetchUrl(`${publicBase}/to/${encodeURIComponent('file:///etc/passwd')}`)).content).toMatch(/a redirect to file: \(only http and https are followed\)/);
    // Redirects are bounded.
    expect((await fetchUrl(`${publicBase}/loop/0`)).content).toBe(`Error: could not fetch ${publicBase}/loop/0: more than ${MAX_REDIRECTS} redirects`);
  });

  test('the setting: off by default, and when on, local pages and redirects to them are read', async () => {
    expect(loadSettings({}).settings.agentAllowLocalAddresses).toBe(false);
    expect(loadSettings({ agentAllowLocalAddresses: true }).settings.agentAllowLocalAddresses).toBe(true);
    let allow = false;
    const getter = { allowLocalAddresses: () => allow };
    expect((await fetchUrl(`http://127.0.0.1:${port}/`, getter)).isError).toBe(true);
    allow = true;
    expect((await fetchUrl(`http://127.0.0.1:${port}/`, getter)).content).toContain(SECRET);
    expect((await fetchUrl(`${publicBase}/to/${encodeURIComponent(`http://localhost:${port}/`)}`, getter)).content).toContain(SECRET);
  });

  test('public addresses are not mistaken for local ones', () => {
    for (const host of ['example.com', '93.184.216.34', '[2606:4700::1111]', '172.32.0.1', '100.128.0.1', '11.0.0.1', '[2001:db8::1]', 'localhost.example.com', 'local.example.com']) {
      expect([host, localHostReason(new URL(`http://${host}/`).hostname)]).toEqual([host, null]);
    }
  });
});
