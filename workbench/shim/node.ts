/**
 * The workbench's `obsidian` shim in Node (jest maps `obsidian` here): the same Vault, file tree,
 * MetadataCache, FileManager and SecretStorage as in the page, talking over HTTP to a workbench
 * server (workbench/server.ts) on a vault folder on disk. No DOM, so no views, modals, settings or
 * Plugin: code that needs those is tested in the browser (__tests__/e2e).
 */
import moment from 'moment';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { setServerUrl, type FileEntry } from './api';
import { FileManager } from './fileManager';
import { installLanguageHelpers } from './language';
import { MetadataCache } from './metadata';
import { SecretStorage } from './secretStorage';
import { Vault } from './vault';

installLanguageHelpers();

export { Events, type EventRef } from './events';
export { TAbstractFile, TFile, TFolder } from './files';
export { Vault } from './vault';
export { MetadataCache, getAllTags, parseFrontMatterTags, parseFrontMatterAliases, parseFrontMatterEntry, getFrontMatterInfo } from './metadata';
export { FileManager } from './fileManager';
export { SecretStorage } from './secretStorage';
export { loadPdfJs } from './pdfjs';
export {
  normalizePath, requestUrl, request, getLinkpath, parseLinktext, stripHeading, arrayBufferToBase64, base64ToArrayBuffer, getLanguage, Platform,
  apiVersion, requireApiVersion,
} from './util';
export { moment, parseYaml, stringifyYaml };

/**
 * Obsidian's htmlToMarkdown without a DOM, reduced to text as the page's shim is (markdown.ts): tags
 * stripped (block ends become line breaks), the common entities decoded.
 */
export function htmlToMarkdown(html: string | { textContent: string | null }): string {
  if (typeof html !== 'string') return html.textContent ?? '';
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return html
    .replace(/<(script|style|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<\/?(?:p|div|h[1-6]|li|ul|ol|br|tr|pre|blockquote|section|article|header|footer|main)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|[a-z]+);/gi, (whole, code: string) => (code[0] === '#' ? String.fromCodePoint(Number(code.slice(1))) : (entities[code.toLowerCase()] ?? whole)))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The DOM-free part of Obsidian's App. */
export class NodeApp {
  readonly metadataCache: MetadataCache;
  readonly fileManager: FileManager;
  readonly secretStorage: SecretStorage;

  constructor(readonly vault: Vault, secrets: Record<string, string> = {}) {
    this.metadataCache = new MetadataCache(vault);
    this.fileManager = new FileManager(this);
    this.secretStorage = new SecretStorage(secrets);
  }
}

/** The app over the vault a workbench server serves, loaded as the page loads it (GET /api/boot). */
export async function openVault(serverUrl: string): Promise<NodeApp> {
  setServerUrl(serverUrl);
  const res = await fetch(`${serverUrl.replace(/\/+$/, '')}/api/boot`);
  if (!res.ok) throw new Error(`workbench server at ${serverUrl}: boot failed with status ${res.status}`);
  const boot = (await res.json()) as { vaultName: string; files: FileEntry[]; secrets: Record<string, string> };
  return new NodeApp(new Vault(boot.vaultName, boot.files), boot.secrets);
}
