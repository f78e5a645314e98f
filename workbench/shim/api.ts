/** The page's client for the workbench server's JSON API (the vault folder on disk, plugin data, secrets). */

export interface FileEntry {
  path: string;
  kind: 'file' | 'folder';
  size: number;
  mtime: number;
  ctime: number;
  /** Text of markdown files, sent at boot so the metadata cache can answer synchronously. */
  content?: string;
}

export interface Stat {
  type: 'file' | 'folder';
  size: number;
  mtime: number;
  ctime: number;
}

export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

/** Where the workbench server is: '' (same origin) in the page; its URL in Node (node.ts). */
let base = '';

export function setServerUrl(url: string): void {
  base = url.replace(/\/+$/, '');
}

/** Every write the page started and has not seen finish: the harness waits on it. */
const pending = new Set<Promise<unknown>>();

export function pendingWrites(): Promise<unknown> {
  return Promise.allSettled([...pending]);
}

export async function call<T>(method: string, route: string, params: Record<string, string> = {}, body?: string): Promise<T> {
  const query = new URLSearchParams(params).toString();
  const promise = (async () => {
    const res = await fetch(`${base}/api/${route}${query ? `?${query}` : ''}`, { method, body });
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // Plain-text error body.
      }
      throw new ApiError(message, res.status);
    }
    return (text ? JSON.parse(text) : null) as T;
  })();
  if (method !== 'GET') {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise)).catch(() => undefined);
  }
  return promise;
}

export const fsApi = {
  read: (path: string) => call<{ content: string; stat: Stat }>('GET', 'fs/read', { path }),
  readBinary: async (path: string): Promise<ArrayBuffer> => {
    const res = await fetch(`${base}/api/fs/raw?${new URLSearchParams({ path }).toString()}`);
    if (!res.ok) throw new ApiError(await res.text(), res.status);
    return res.arrayBuffer();
  },
  write: (path: string, content: string, mode: 'create' | 'overwrite' | 'modify') => call<Stat>('PUT', 'fs/write', { path, mode }, content),
  mkdir: (path: string) => call<Stat>('POST', 'fs/mkdir', { path }),
  trash: (path: string) => call<null>('POST', 'fs/trash', { path }),
  remove: (path: string) => call<null>('POST', 'fs/remove', { path }),
  rename: (from: string, to: string) => call<Stat>('POST', 'fs/rename', { from, to }),
  stat: (path: string) => call<Stat | null>('GET', 'fs/stat', { path }),
  list: (path: string) => call<{ files: string[]; folders: string[] }>('GET', 'fs/list', { path }),
  putSecrets: (secrets: Record<string, string>) => call<null>('PUT', 'secrets', {}, JSON.stringify(secrets)),
};
