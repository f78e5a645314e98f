/** Small functions the `obsidian` module exports: paths, debounce, platform flags, HTTP. */

export function normalizePath(path: string): string {
  let p = path.replace(/\\/g, '/').replace(/\u00a0|\u202f/g, ' ');
  p = p.replace(/\/+/g, '/').replace(/^\/+|\/+$/g, '');
  p = p.normalize('NFC');
  return p === '' ? '/' : p;
}

export interface Debouncer<T extends unknown[], V> {
  (...args: [...T]): this;
  cancel(): this;
  run(): V | void;
}

export function debounce<T extends unknown[], V>(cb: (...args: [...T]) => V, timeout = 0, resetTimer = false): Debouncer<T, V> {
  let timer: number | null = null;
  let lastArgs: T | null = null;
  const run = (): V | void => {
    timer = null;
    if (!lastArgs) return;
    const args = lastArgs;
    lastArgs = null;
    return cb(...args);
  };
  const debounced = function (this: unknown, ...args: [...T]) {
    lastArgs = args;
    if (timer !== null && resetTimer) {
      window.clearTimeout(timer);
      timer = null;
    }
    if (timer === null) timer = window.setTimeout(run, timeout);
    return debounced;
  } as Debouncer<T, V>;
  debounced.cancel = () => {
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
    lastArgs = null;
    return debounced;
  };
  debounced.run = () => {
    if (timer !== null) window.clearTimeout(timer);
    return run();
  };
  return debounced;
}
const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;

/** A desktop browser: no Node, no Electron (like Obsidian on a platform without the desktop app). */
export const Platform = {
  isDesktop: true,
  isMobile: false,
  isDesktopApp: false,
  isMobileApp: false,
  isIosApp: false,
  isAndroidApp: false,
  isPhone: false,
  isTablet: false,
  isMacOS: /Mac/.test(ua),
  isWin: /Windows/.test(ua),
  isLinux: /Linux/.test(ua),
  isSafari: false,
  resourcePathPrefix: '/api/fs/raw?path=',
};

export interface RequestUrlParam {
  url: string;
  method?: string;
  contentType?: string;
  body?: string | ArrayBuffer;
  headers?: Record<string, string>;
  throw?: boolean;
}

export interface RequestUrlResponse {
  status: number;
  headers: Record<string, string>;
  arrayBuffer: ArrayBuffer;
  json: unknown;
  text: string;
}

/** Obsidian's requestUrl, through the page's fetch (the provider is proxied same-origin). */
export function requestUrl(request: RequestUrlParam | string): Promise<RequestUrlResponse> & { json: Promise<unknown>; text: Promise<string>; arrayBuffer: Promise<ArrayBuffer> } {
  const param = typeof request === 'string' ? { url: request } : request;
  const promise = (async (): Promise<RequestUrlResponse> => {
    const headers: Record<string, string> = { ...(param.headers ?? {}) };
    if (param.contentType) headers['content-type'] = param.contentType;
    const res = await fetch(param.url, { method: param.method ?? 'GET', headers, body: param.body });
    const buffer = await res.arrayBuffer();
    const text = new TextDecoder().decode(buffer);
    const responseHeaders: Record<string, string> = {};
    res.headers.forEach((v, k) => (responseHeaders[k] = v));
    if (res.status >= 400 && param.throw !== false) {
      const error = new Error(`Request failed, status ${res.status}`) as Error & { status: number; headers: Record<string, string>; text: string };
      error.status = res.status;
      error.headers = responseHeaders;
      error.text = text;
      throw error;
    }
    return {
      status: res.status,
      headers: responseHeaders,
      arrayBuffer: buffer,
      text,
      get json(): unknown {
        return JSON.parse(text) as unknown;
      },
    };
  })();
  // The shortcut promises reject with the request; most callers never read them, so they are marked
  // handled (else a failed request, e.g. the provider down, is also three unhandled rejections).
  const derived = <T>(pick: (r: RequestUrlResponse) => T): Promise<T> => {
    const p = promise.then(pick);
    p.catch(() => undefined);
    return p;
  };
  return Object.assign(promise, {
    json: derived((r) => r.json),
    text: derived((r) => r.text),
    arrayBuffer: derived((r) => r.arrayBuffer),
  });
}

export async function request(param: RequestUrlParam | string): Promise<string> {
  return (await requestUrl(param)).text;
}

export function setTooltip(el: HTMLElement, tooltip: string, _options?: unknown): void {
  el.setAttribute('aria-label', tooltip);
  el.setAttribute('title', tooltip);
}

export function getLinkpath(linktext: string): string {
  const i = linktext.search(/[#^]/);
  return (i < 0 ? linktext : linktext.slice(0, i)).trim();
}

export function parseLinktext(linktext: string): { path: string; subpath: string } {
  const i = linktext.search(/[#^]/);
  return i < 0 ? { path: linktext, subpath: '' } : { path: linktext.slice(0, i), subpath: linktext.slice(i) };
}

export function stripHeading(heading: string): string {
  return heading.replace(/[!"#$%&()*+,.:;<=>?@^`{|}~/[\]\\]/g, ' ').replace(/\s+/g, ' ').trim();
}

export function arrayBufferToBase64(buffer: ArrayBuffer): string {
  let s = '';
  for (const b of new Uint8Array(buffer)) s += String.fromCharCode(b);
  return btoa(s);
}

export function base64ToArrayBuffer(base64: string): ArrayBuffer {
  const s = atob(base64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out.buffer;
}

export function getLanguage(): string {
  return 'en';
}

export const apiVersion = '1.11.4';

export function requireApiVersion(version: string): boolean {
  const a = apiVersion.split('.').map(Number);
  const b = version.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}
