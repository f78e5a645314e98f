/**
 * Which addresses the agent may not fetch (issue 26, SSRF): loopback, private, link-local, shared
 * (CGNAT), multicast, unspecified and reserved ones, in IPv4 and IPv6 (IPv4-mapped, -compatible,
 * NAT64 and 6to4 forms classified by the IPv4 address they carry), and local names. Pure: the host
 * name comes from WHATWG URL parsing, which already turns 2130706433, 0x7f.1, 0177.0.0.1, 127.1
 * and `127.0.0.1.` into 127.0.0.1 and compresses IPv6; resolving names is the host's part.
 */

/** The four bytes of a dotted-quad IPv4 address, or null. */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address (`::`, an IPv4 tail, a zone id allowed), or null. */
export function parseIPv6(text: string): number[] | null {
  let s = text.replace(/%.*$/, '');
  const lastColon = s.lastIndexOf(':');
  if (s.includes('.') && lastColon >= 0) {
    // An IPv4 tail (::ffff:127.0.0.1) as the two groups it stands for.
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const group = (h: string) => (h === '' ? [] : h.split(':'));
  const head = group(halves[0]);
  const rest = halves.length === 2 ? group(halves[1]) : [];
  const words = [...head, ...rest].map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
  if (words.some(Number.isNaN)) return null;
  const fill = 8 - words.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return null;
  return [...words.slice(0, head.length), ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...words.slice(head.length)];
}

function ipv4Reason([a, b, c]: number[]): string | null {
  if (a === 0) return 'an unspecified ("this network") address';
  if (a === 127) return 'a loopback address';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'a private address';
  if (a === 169 && b === 254) return 'a link-local address';
  if (a === 100 && b >= 64 && b <= 127) return 'a shared (CGNAT) address';
  if (a === 192 && b === 0 && c === 0) return 'a reserved (IETF protocol) address';
  if (a === 198 && (b === 18 || b === 19)) return 'a benchmarking address';
  if (a >= 224 && a <= 239) return 'a multicast address';
  if (a >= 240) return 'a reserved or broadcast address';
  return null;
}

function ipv6Reason(w: number[]): string | null {
  const v4 = (hi: number, lo: number) => ipv4Reason([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  const zeros = (n: number) => w.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return 'an unspecified address';
  if (zeros(7) && w[7] === 1) return 'a loopback address';
  if (zeros(5) && w[5] === 0xffff) return v4(w[6], w[7]); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros(6)) return v4(w[6], w[7]); // ::a.b.c.d, IPv4-compatible
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) return v4(w[6], w[7]); // NAT64
  if (w[0] === 0x2002) return v4(w[1], w[2]); // 6to4
  if ((w[0] & 0xfe00) === 0xfc00) return 'a private (unique local) address';
  if ((w[0] & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((w[0] & 0xffc0) === 0xfec0) return 'a private (site-local) address';
  if ((w[0] & 0xff00) === 0xff00) return 'a multicast address';
  return null;
}

/** Why an IP address (v4 or v6, brackets allowed) is local, or null for a public one (or not an address). */
export function localAddressReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = parseIPv4(bare);
  if (v4) return ipv4Reason(v4);
  const v6 = bare.includes(':') ? parseIPv6(bare) : null;
  return v6 ? ipv6Reason(v6) : null;
}

/** Names that only mean something on this machine or network. */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'lan', 'intranet'];

/**
 * Why a URL's host (as `new URL(...).hostname` gives it) must not be fetched, or null. A name that
 * is not an address may still resolve to a local one: the host checks that where it can.
 */
export function localHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host === '' || (!/[.:]/.test(host) && !LOCAL_SUFFIXES.includes(host))) {
    return host === '' ? 'an empty host' : `a single-label name (${host}), which only a local network resolves`;
  }
  for (const suffix of LOCAL_SUFFIXES) if (host === suffix || host.endsWith(`.${suffix}`)) return `a local name (.${suffix})`;
  return localAddressReason(host);
}

/** The error a fetch gives for a local address: the model reads it, so it says what to do. */
export class LocalAddressError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`refused: ${url} is ${reason}; the agent fetches only public web addresses (a setting allows local addresses)`);
    this.name = 'LocalAddressError';
  }
}

/** Throws LocalAddressError when `url`'s host is a local address or name. */
export function assertPublicUrl(url: URL): void {
  const reason = localHostReason(url.hostname);
  if (reason !== null) throw new LocalAddressError(url.href, reason);
}

/** A URL's host without IPv6 brackets, and whether it is an IP address (nothing to resolve). */
export function hostOf(url: URL): { host: string; literal: boolean } {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return { host, literal: parseIPv4(host) !== null || host.includes(':') };
}

/** Throws LocalAddressError when any address `url`'s name resolved to is local (one local answer is enough to steer a fetch). */
export function assertPublicAddresses(url: URL, addresses: readonly string[]): void {
  for (const address of addresses) {
    const reason = localAddressReason(address);
    if (reason !== null) throw new LocalAddressError(url.href, `a name that resolves to ${address}, ${reason}`);
  }
}
