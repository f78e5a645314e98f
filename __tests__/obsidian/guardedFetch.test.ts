/**
 * The agent's guarded GET on Obsidian desktop (issue 26, SSRF), run in Node over the real dns, http
 * and https modules against real loopback HTTP servers. Where a test needs a "public" host, its name
 * resolves (stubbed lookup) to 203.0.113.10, a public documentation address, and the test's network
 * routes that one address to the loopback server (routedHttp): everything else is the real stack.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { guardedGet, NodeNetworkError, type DnsLike, type HttpLike, type LookupAddress, type NodeNet } from '../../src/obsidian/guardedFetch';
import { FETCH_MAX_BYTES, MAX_REDIRECTS } from '../../src/core/agent/webPage';
import { MAX_REDIRECTS as NODE_MAX_REDIRECTS } from '../../src/node/toolHost';

const PUBLIC = '203.0.113.10';
const realNet: NodeNet = { dns, http, https };
/** As on desktop: with zlib, compressed pages are asked for and read. */
const zlibNet: NodeNet = { dns, http, https, zlib };

/** The page each encoding sends (about 46 KB, so each compresses well). */
const PAGE = `<html><head><title>Pruning</title></head><body>${'<p>Pinch the side shoots.</p>'.repeat(1500)}</body></html>`;
const ENCODED: Record<string, Buffer> = {
  gzip: zlib.gzipSync(PAGE),
  deflate: zlib.deflateSync(PAGE),
  br: zlib.brotliCompressSync(PAGE),
};
/** A gzip bomb: 32,768 gzip members of 1 MB of zeros each (a gzip stream may hold several): 34 MB sent, 32 GB once decompressed. */
const BOMB_MEMBER = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
const BOMB_MEMBERS = 32 * 1024;
/** Stored, not compressed (level 0): the compressed stream is longer than the page, so its read is bounded first. */
const STORED_PAGE = Buffer.alloc(3 * FETCH_MAX_BYTES, 'stored ');
const STORED = zlib.gzipSync(STORED_PAGE, { level: 0 });
let stored = { written: 0, closed: false };
let bomb = { written: 0, closed: false };
let acceptEncoding: string | undefined;

let server: http.Server;
let port: number;
let base: string;
const hits: string[] = [];
/** Bytes /endless wrote, and whether its connection was closed by the client. */
let endless = { written: 0, closed: false };
let slowClosed = false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    hits.push(`${req.headers.host ?? ''}${url}`);
    acceptEncoding = req.headers['accept-encoding'];
    if (url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Pruning</title></head><body><p>Pinch the side shoots.</p></body></html>');
    } else if (url === '/latin1') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
      res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9])); // "café" in Latin-1
    } else if (url === '/to-loopback') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/page` });
      res.end();
    } else if (url === '/to-metadata-name') {
      res.writeHead(301, { location: `http://metadata.example:${port}/latest/meta-data/` });
      res.end();
    } else if (url === '/to-file') {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    } else if (url === '/gzip') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end(Buffer.from([0x1f, 0x8b, 8, 0]));
    } else if (url.startsWith('/enc/')) {
      const encoding = url.slice(5);
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding });
      res.end(ENCODED[encoding] ?? Buffer.from('not compressed at all'));
    } else if (url === '/bomb') {
      bomb = { written: 0, closed: false };
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.on('close', () => (bomb.closed = true));
      let sent = 0;
      const pump = () => {
        while (!bomb.closed && sent < BOMB_MEMBERS) {
          sent++;
          bomb.written += BOMB_MEMBER.length;
          if (!res.write(BOMB_MEMBER)) return void res.once('drain', pump);
        }
        if (sent === BOMB_MEMBERS) res.end();
      };
      pump();
    } else if (url === '/stored') {
      stored = { written: 0, closed: false };
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.on('close', () => (stored.closed = true));
      const pump = () => {
        while (!stored.closed && stored.written < STORED.length) {
          const chunk = STORED.subarray(stored.written, stored.written + 64 * 1024);
          stored.written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (stored.written === STORED.length) res.end();
      };
      pump();
    } else if (url.startsWith('/loop/')) {
      res.writeHead(302, { location: `/loop/${Number(url.slice(6)) + 1}` });
      res.end();
    } else if (url === '/endless') {
      endless = { written: 0, closed: false };
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      res.on('close', () => (endless.closed = true));
      const pump = () => {
        while (!endless.closed && endless.written < 200 * FETCH_MAX_BYTES) {
          endless.written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    } else if (url === '/slow') {
      slowClosed = false;
      res.on('close', () => (slowClosed = true));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('the first words, then nothing');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => (hits.length = 0));

/** A dns whose lookup answers from `names` (in turn, per name: the last answer repeats) and counts its calls. */
function stubDns(names: Record<string, string[]>): DnsLike & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    lookup(hostname, _options, callback) {
      const answers = names[hostname];
      const seen = calls.filter((c) => c === hostname).length;
      calls.push(hostname);
      if (!answers) return void callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      const address = answers[Math.min(seen, answers.length - 1)];
      callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
    },
  };
}

/** The real http module, with the public test address routed to the loopback server (and nothing else changed). */
const routedHttp: HttpLike = {
  request(options, callback) {
    const pinned = options.lookup;
    const route = (a: LookupAddress): LookupAddress => (a.address === PUBLIC ? { address: '127.0.0.1', family: 4 } : a);
    const lookup: typeof pinned = pinned
      ? (name, opts, cb) =>
          pinned(name, opts, (error, address, family) =>
            Array.isArray(address) ? cb(error, address.map(route)) : cb(error, route({ address, family: family ?? 4 }).address, family),
          )
      : undefined;
    return (http as HttpLike).request({ ...options, ...(lookup ? { lookup } : {}) }, callback);
  },
};

const text = (body: Uint8Array) => new TextDecoder().decode(body);
const never = () => false;
const always = () => true;
const get = (net: NodeNet, url: string, allowLocal = never, signal = new AbortController().signal, timeoutMs = 30_000) => guardedGet(net, url, signal, timeoutMs, allowLocal);

test('the Obsidian guarded fetch follows as many redirects as the Node host', () => {
  expect(MAX_REDIRECTS).toBe(NODE_MAX_REDIRECTS);
});

test('a loopback address is refused by default, without a request; fetched when the setting allows it', async () => {
  await expect(get(realNet, `${base}/page`)).rejects.toThrow(/refused: http:\/\/127\.0\.0\.1:\d+\/page is a loopback address/);
  await expect(get(realNet, `http://localhost:${port}/page`)).rejects.toThrow(/is a local name \(\.localhost\)/);
  expect(hits).toEqual([]);
  const page = await get(realNet, `${base}/page`, always);
  expect(page).toMatchObject({ url: `${base}/page`, status: 200, contentType: 'text/html' });
  expect(text(page.body)).toContain('Pinch the side shoots.');
  expect(hits).toEqual([`127.0.0.1:${port}/page`]);
});

test('a public-looking name that resolves to 127.0.0.1 is refused before any connection', async () => {
  const stub = stubDns({ 'pages.example': ['127.0.0.1'] });
  await expect(get({ ...realNet, dns: stub }, `http://pages.example:${port}/page`)).rejects.toThrow(
    `refused: http://pages.example:${port}/page is a name that resolves to 127.0.0.1, a loopback address; the agent fetches only public web addresses`,
  );
  expect(hits).toEqual([]);
});

test('the connection goes to the address that was checked: a lookup that would answer differently is not asked again', async () => {
  // Allowed: the name's first answer (loopback) is fetched; its second (a blackhole) is never asked for.
  const allowed = stubDns({ 'pages.example': ['127.0.0.1', '10.255.255.1'] });
  const page = await get({ ...realNet, dns: allowed }, `http://pages.example:${port}/page`, always);
  expect(text(page.body)).toContain('Pinch the side shoots.');
  expect(allowed.calls).toEqual(['pages.example']);
  expect(hits).toEqual([`pages.example:${port}/page`]);
  // DNS rebinding: the check sees a public address, a second lookup would say 127.0.0.1. The
  // connection goes to the public address checked (unreachable here), never to the loopback server.
  const rebinding = stubDns({ 'rebind.example': ['198.51.100.7', '127.0.0.1'] });
  hits.length = 0;
  await expect(get({ ...realNet, dns: rebinding }, `http://rebind.example:${port}/page`, never, new AbortController().signal, 1500)).rejects.toThrow();
  expect(rebinding.calls).toEqual(['rebind.example']);
  expect(hits).toEqual([]);
});

test('a name that does not resolve comes back as the network error', async () => {
  await expect(get({ ...realNet, dns: stubDns({}) }, 'http://nowhere.example/')).rejects.toThrow('getaddrinfo ENOTFOUND nowhere.example');
});

describe('redirects, each hop checked', () => {
  const net: NodeNet = { dns: stubDns({ 'public.example': [PUBLIC], 'metadata.example': ['169.254.169.254'] }), http: routedHttp, https };

  test('a public name is fetched (through the routed address)', async () => {
    const page = await get(net, `http://public.example:${port}/page`);
    expect(text(page.body)).toContain('Pinch the side shoots.');
    expect(hits).toEqual([`public.example:${port}/page`]);
  });

  test('a redirect to loopback is refused before the second hop is requested', async () => {
    await expect(get(net, `http://public.example:${port}/to-loopback`)).rejects.toThrow(/refused: http:\/\/127\.0\.0\.1:\d+\/page is a loopback address/);
    expect(hits).toEqual([`public.example:${port}/to-loopback`]);
  });

  test('a redirect to a name that resolves to the cloud metadata address is refused', async () => {
    await expect(get(net, `http://public.example:${port}/to-metadata-name`)).rejects.toThrow(
      `refused: http://metadata.example:${port}/latest/meta-data/ is a name that resolves to 169.254.169.254, a link-local address`,
    );
    expect(hits).toEqual([`public.example:${port}/to-metadata-name`]);
  });

  test('a redirect off http(s) and too many redirects are refused', async () => {
    await expect(get(net, `http://public.example:${port}/to-file`)).rejects.toThrow('a redirect to file: (only http and https are followed)');
    hits.length = 0;
    await expect(get(net, `http://public.example:${port}/loop/0`)).rejects.toThrow(`more than ${MAX_REDIRECTS} redirects`);
    // The first request and MAX_REDIRECTS hops, each checked, then no more.
    expect(hits).toHaveLength(MAX_REDIRECTS + 1);
  });
});

test('a body over the cap stops being read: the first FETCH_MAX_BYTES are kept and the connection is closed', async () => {
  const page = await get(realNet, `${base}/endless`, always);
  expect(page.body.length).toBe(FETCH_MAX_BYTES);
  for (let i = 0; i < 100 && !endless.closed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(endless.closed).toBe(true);
  // The server stopped at what the sockets' buffers held, far short of the 1 GB it would send.
  expect(endless.written).toBeLessThan(4 * FETCH_MAX_BYTES);
});

test('a stop destroys the request (AbortError); the timeout does too (pageTimeout)', async () => {
  const controller = new AbortController();
  const stopped = get(realNet, `${base}/slow`, always, controller.signal);
  setTimeout(() => controller.abort(), 200);
  await expect(stopped).rejects.toMatchObject({ name: 'AbortError' });
  for (let i = 0; i < 100 && !slowClosed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(slowClosed).toBe(true);
  slowClosed = false;
  await expect(get(realNet, `${base}/slow`, always, new AbortController().signal, 1000)).rejects.toThrow('no answer after 1 s');
  for (let i = 0; i < 100 && !slowClosed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(slowClosed).toBe(true);
  // A signal already stopped sends nothing.
  hits.length = 0;
  await expect(get(realNet, `${base}/page`, always, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  expect(hits).toEqual([]);
});

test('the body comes back as bytes with its content type (the host decodes the charset)', async () => {
  const page = await get(realNet, `${base}/latin1`, always);
  expect(page.contentType).toBe('text/plain; charset=iso-8859-1');
  expect([...page.body]).toEqual([0x63, 0x61, 0x66, 0xe9]);
});

test('pages are asked for uncompressed; one sent compressed anyway is refused with a reason', async () => {
  await expect(get(realNet, `${base}/gzip`, always)).rejects.toThrow('the server sent the page compressed (gzip) though it was asked not to');
  expect(acceptEncoding).toBe('identity');
});

describe('with zlib (desktop): compressed pages', () => {
  test.each(['gzip', 'deflate', 'br'])('a page sent %s is asked for and decompressed', async (encoding) => {
    const page = await get(zlibNet, `${base}/enc/${encoding}`, always);
    expect(acceptEncoding).toBe('gzip, deflate, br');
    expect(ENCODED[encoding].length).toBeLessThan(PAGE.length / 20);
    expect(page).toMatchObject({ status: 200, contentType: 'text/html' });
    expect(text(page.body)).toBe(PAGE);
  });

  test('an encoding that cannot be read, or data that is not what it says, is refused with a reason', async () => {
    await expect(get(zlibNet, `${base}/enc/zstd`, always)).rejects.toThrow('the server sent the page in an encoding that cannot be read (zstd)');
    await expect(get(zlibNet, `${base}/gzip`, always)).rejects.toThrow(/^the page could not be decompressed \(gzip\): unexpected end of file$/);
  });

  test('a gzip bomb (32 GB of zeros) stops at the cap on the decompressed bytes, quickly, and the connection is closed', async () => {
    const started = performance.now();
    const page = await get(zlibNet, `${base}/bomb`, always);
    const elapsed = performance.now() - started;
    expect(page.body.length).toBe(FETCH_MAX_BYTES);
    expect(page.body.every((b) => b === 0)).toBe(true);
    expect(elapsed).toBeLessThan(3000);
    for (let i = 0; i < 100 && !bomb.closed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bomb.closed).toBe(true);
    // Of the 34 MB of compressed members, only what the sockets' buffers held was sent.
    expect(BOMB_MEMBER.length * BOMB_MEMBERS).toBeGreaterThan(30 * 1024 * 1024);
    expect(bomb.written).toBeLessThan(4 * FETCH_MAX_BYTES);
  });

  test('the compressed read is bounded too: a stream longer than its page stops at the cap, what it decompressed is the page', async () => {
    const page = await get(zlibNet, `${base}/stored`, always);
    // Stored blocks add a few bytes per 64 KB: the cap on the compressed bytes comes first (less
    // the last part of zlib's output, which comes in 16 KB pieces, when the cut input ends it).
    expect(page.body.length).toBeGreaterThan(FETCH_MAX_BYTES - 64 * 1024);
    expect(page.body.length).toBeLessThan(FETCH_MAX_BYTES);
    expect(Buffer.from(page.body).equals(STORED_PAGE.subarray(0, page.body.length))).toBe(true);
    for (let i = 0; i < 100 && !stored.closed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stored.closed).toBe(true);
    expect(stored.written).toBeLessThan(STORED.length);
  });
});

describe('network failures (NodeNetworkError, which the host may retry through requestUrl) told apart from the rest', () => {
  let dead: number;
  beforeAll(async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    dead = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
  });

  test('a name that does not resolve: the hop, no addresses', async () => {
    await expect(get({ ...realNet, dns: stubDns({}) }, 'http://nowhere.example/a')).rejects.toMatchObject({ name: 'NodeNetworkError', code: 'ENOTFOUND', url: 'http://nowhere.example/a', addresses: null });
  });

  test('every checked address refusing: the hop and the addresses that were checked', async () => {
    const two: DnsLike = { lookup: (_name, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }, { address: '127.0.0.2', family: 4 }]) };
    const error = await get({ ...realNet, dns: two }, `http://two.example:${dead}/page`, always).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeNetworkError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', url: `http://two.example:${dead}/page`, addresses: ['127.0.0.1', '127.0.0.2'] });
  });

  test('a refusal, an HTTP error, a stop, the timeout and a bad body are not network failures', async () => {
    const notNetwork = async (work: Promise<unknown>) => expect(await work.then(() => null, (e: unknown) => e instanceof NodeNetworkError)).not.toBe(true);
    await notNetwork(get(realNet, `${base}/page`));
    expect((await get(realNet, `${base}/gone`, always)).status).toBe(404);
    await notNetwork(get(realNet, `${base}/page`, always, AbortSignal.abort()));
    await notNetwork(get(realNet, `${base}/slow`, always, new AbortController().signal, 500));
    await notNetwork(get(zlibNet, `${base}/gzip`, always));
  });
});
