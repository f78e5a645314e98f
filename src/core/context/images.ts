import { imageSize } from 'image-size';
import { sha256BytesHex } from '../hash';
import type { VaultReader } from '../ports/vault';
import type { ImagePart } from '../engine/types';
import { noteId, type ContextChip, type ContextItem } from './items';
import type { ResolutionProblem } from './resolver';
import { UnreadableNoteError } from './vaultReader';

/**
 * Images embedded in the active note (`![[x.png]]`, `![[x.png|300]]`, `![alt](path/x.jpg)`), read
 * from the vault and sent as image parts of the turn's user message to models that accept images.
 *
 * "Sized" means measured, not resampled: the core runs in plain Node (no canvas), so the bytes go
 * as they are in the file. What a provider does with a large image is its own downscaling; the
 * tokens counted here follow that rule (OpenAI: high detail tiles; Anthropic: pixels / 750 after
 * its long-side limit), so the budget sees what the provider will bill.
 *
 * Deterministic: the embeds in note order (fenced and inline code skipped), deduplicated, the
 * first MAX_IMAGES_PER_TURN sendable ones read; every other one (over a limit, missing,
 * unreadable, not a PNG/JPEG/GIF/WebP) is a named problem of the turn, never dropped silently.
 */

/** Media types sent, by the type image-size reads from the bytes. */
const MEDIA_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
/** Extensions an embed must have to be read as an image to send. */
const SENDABLE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp']);
/** Image files that are embeds too, but that no provider takes: named, not read. */
const OTHER_IMAGE_EXTENSIONS = new Set(['bmp', 'svg', 'tif', 'tiff', 'avif', 'heic', 'heif', 'ico']);

export const MAX_IMAGES_PER_TURN = 8;
/**
 * Anthropic's limit, 5 MB per image, the strictest of the providers. It is applied to the base64
 * text the request carries (what Anthropic measures), so a file may have about 3.75 MB.
 */
export const MAX_IMAGE_BASE64_BYTES = 5 * 1024 * 1024;

export const IMAGE_FAMILIES = ['openai', 'anthropic'] as const;
/** Whose downscaling rule counts an image's tokens. Other providers: OpenAI's rule. */
export type ImageFamily = (typeof IMAGE_FAMILIES)[number];

export type EmbedKind = 'image' | 'unsupported' | 'remote';

export interface ImageEmbed {
  /** The link as written (URL-decoded for markdown links, without `|size` or `#heading`). */
  readonly link: string;
  readonly kind: EmbedKind;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INLINE_CODE = /(`+)(?:(?!\1)[\s\S])*?\1/g;
const WIKI_EMBED = /!\[\[([^[\]|#^]+)(?:[#^][^[\]|]*)?(?:\|[^[\]]*)?\]\]/g;
const MARKDOWN_IMAGE = /!\[[^[\]]*\]\(\s*(?:<([^<>\n]*)>|([^()\s]+))(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function extensionOf(link: string): string {
  const name = link.split('/').pop() ?? link;
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function decodeLink(link: string): string {
  try {
    return decodeURIComponent(link);
  } catch {
    return link;
  }
}

function kindOf(link: string, remote: boolean): EmbedKind | null {
  const ext = extensionOf(link);
  if (remote) return SENDABLE_EXTENSIONS.has(ext) || OTHER_IMAGE_EXTENSIONS.has(ext) ? 'remote' : null;
  if (SENDABLE_EXTENSIONS.has(ext)) return 'image';
  if (OTHER_IMAGE_EXTENSIONS.has(ext)) return 'unsupported';
  return null;
}

/**
 * The image embeds of a note, in order of appearance, each link once. Embeds of notes, PDFs and
 * other files are not images and are not listed; those inside fenced or inline code are not embeds.
 */
export function imageEmbeds(markdown: string): ImageEmbed[] {
  const out: ImageEmbed[] = [];
  const seen = new Set<string>();
  const add = (link: string, remote: boolean): void => {
    const trimmed = link.trim();
    const kind = trimmed ? kindOf(trimmed, remote) : null;
    if (!kind || seen.has(trimmed)) return;
    seen.add(trimmed);
    out.push({ link: trimmed, kind });
  };
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n|\r/)) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    if (!line.includes('![')) continue;
    // Inline code is blanked (same length), so the order of the embeds left is the order in the line.
    const text = line.includes('`') ? line.replace(INLINE_CODE, (m) => ' '.repeat(m.length)) : line;
    const found: Array<{ at: number; link: string; remote: boolean }> = [];
    for (const m of text.matchAll(WIKI_EMBED)) found.push({ at: m.index ?? 0, link: m[1], remote: false });
    for (const m of text.matchAll(MARKDOWN_IMAGE)) {
      const raw = m[1] ?? m[2] ?? '';
      found.push({ at: m.index ?? 0, link: SCHEME.test(raw) ? raw : decodeLink(raw), remote: SCHEME.test(raw) });
    }
    found.sort((a, b) => a.at - b.at);
    for (const f of found) add(f.link, f.remote);
  }
  return out;
}

/**
 * Tokens a provider counts for an image of `width`×`height` pixels, after its own downscaling.
 * - OpenAI (high detail): fit in 2048×2048, then the shortest side to 768; 170 per 512-px tile + 85.
 * - Anthropic: the long side to at most 1568, then width × height / 750.
 */
export function imageTokensFor(width: number, height: number, family: ImageFamily): number {
  if (width <= 0 || height <= 0) return 0;
  let w = width;
  let h = height;
  if (family === 'anthropic') {
    const long = Math.max(w, h);
    if (long > 1568) {
      w = Math.max(1, Math.round((w * 1568) / long));
      h = Math.max(1, Math.round((h * 1568) / long));
    }
    return Math.ceil((w * h) / 750);
  }
  const long = Math.max(w, h);
  if (long > 2048) {
    w = Math.max(1, Math.floor((w * 2048) / long));
    h = Math.max(1, Math.floor((h * 2048) / long));
  }
  const short = Math.min(w, h);
  if (short > 768) {
    w = Math.max(1, Math.floor((w * 768) / short));
    h = Math.max(1, Math.floor((h * 768) / short));
  }
  return 170 * Math.ceil(w / 512) * Math.ceil(h / 512) + 85;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding (no Buffer or btoa: the same in Obsidian, mobile and Node). */
export function base64Of(bytes: Uint8Array): string {
  const chunks: string[] = [];
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i];
    const b = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2] : 0;
    const n = (a << 16) | (b << 8) | c;
    out += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? BASE64[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? BASE64[n & 63] : '=';
    if (out.length >= 8192) {
      chunks.push(out);
      out = '';
    }
  }
  chunks.push(out);
  return chunks.join('');
}

function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

/** Size and type of an image from its bytes: null when they are not a PNG, JPEG, GIF or WebP image. */
export function measureImage(bytes: Uint8Array): { mediaType: string; width: number; height: number } | null {
  try {
    const size = imageSize(bytes);
    const mediaType = size.type ? MEDIA_TYPES[size.type] : undefined;
    if (!mediaType || !size.width || !size.height) return null;
    return { mediaType, width: size.width, height: size.height };
  } catch {
    return null;
  }
}

/** A link as a vault path, for a vault that cannot resolve links: relative to the root, `./` and `../` against the note's folder. */
function linkAsPath(link: string, from: string): string {
  const relative = link.startsWith('./') || link.startsWith('../');
  const parts = relative ? from.split('/').slice(0, -1) : [];
  for (const part of link.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

async function resolve(vault: VaultReader, link: string, from: string): Promise<string | null> {
  if (vault.resolveLink) return vault.resolveLink(link, from);
  return linkAsPath(link, from) || null;
}

export interface ReadImagesResult {
  readonly images: ImagePart[];
  readonly problems: ResolutionProblem[];
}

export interface ReadImagesOptions {
  readonly family: ImageFamily;
  readonly maxImages?: number;
  readonly maxBase64Bytes?: number;
}

const problem = (chipId: string, reason: ResolutionProblem['reason'], detail: string): ResolutionProblem => ({ chipId, reason, detail });

/** Read, check and size the images embedded in note `notePath` (its text `markdown`). */
export async function readNoteImages(vault: VaultReader, notePath: string, markdown: string, options: ReadImagesOptions): Promise<ReadImagesResult> {
  const maxImages = options.maxImages ?? MAX_IMAGES_PER_TURN;
  const maxBase64 = options.maxBase64Bytes ?? MAX_IMAGE_BASE64_BYTES;
  const images: ImagePart[] = [];
  const problems: ResolutionProblem[] = [];
  const seen = new Set<string>();
  const where = `embedded in ${notePath}`;
  for (const embed of imageEmbeds(markdown)) {
    if (embed.kind === 'remote') {
      problems.push(problem(embed.link, 'image-not-sent', `${where}: images on the web are not fetched; only images in the vault are sent`));
      continue;
    }
    if (embed.kind === 'unsupported') {
      problems.push(problem(embed.link, 'image-not-sent', `${where}: only PNG, JPEG, GIF and WebP images are sent`));
      continue;
    }
    const path = await resolve(vault, embed.link, notePath).catch(() => null);
    if (path === null) {
      problems.push(problem(embed.link, 'missing', `${where}: no such file in the vault`));
      continue;
    }
    if (seen.has(path)) continue;
    seen.add(path);
    if (images.length >= maxImages) {
      problems.push(problem(path, 'image-not-sent', `${where}: over the limit of ${maxImages} images per message`));
      continue;
    }
    const read = await readImage(vault, path, options.family, maxBase64);
    if ('reason' in read) problems.push(problem(path, read.reason, `${where}: ${read.detail}`));
    else images.push(read);
  }
  return { images, problems };
}

/** One image file, read and sized: the part to send, or why it cannot be sent. */
export async function readImage(
  vault: VaultReader,
  path: string,
  family: ImageFamily,
  maxBase64 = MAX_IMAGE_BASE64_BYTES,
): Promise<ImagePart | { reason: ResolutionProblem['reason']; detail: string }> {
  if (!vault.readBinary) return { reason: 'unreadable', detail: 'images cannot be read from this vault' };
  const limit = `over the ${formatMb(maxBase64)} limit per image`;
  const stat = await vault.stat?.(path).catch(() => null);
  if (stat && base64Length(stat.size) > maxBase64) return { reason: 'too-large', detail: `${formatMb(stat.size)} is ${limit}` };
  let bytes: Uint8Array | null;
  try {
    bytes = await vault.readBinary(path);
  } catch (error) {
    const reason = error instanceof UnreadableNoteError ? error.reason : 'unreadable';
    return { reason, detail: error instanceof Error ? error.message : String(error) };
  }
  if (bytes === null) return { reason: 'missing', detail: `${path} does not exist` };
  if (base64Length(bytes.length) > maxBase64) return { reason: 'too-large', detail: `${formatMb(bytes.length)} is ${limit}` };
  const size = measureImage(bytes);
  if (!size) return { reason: 'image-not-sent', detail: `${path} is not a PNG, JPEG, GIF or WebP image` };
  return {
    path,
    mediaType: size.mediaType,
    width: size.width,
    height: size.height,
    bytes: bytes.length,
    hash: sha256BytesHex(bytes),
    tokens: imageTokensFor(size.width, size.height, family),
    data: base64Of(bytes),
  };
}

function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What the turn pipeline knows of the model: whether it takes images, and whose rule counts them. */
export interface ImageTarget {
  readonly model: string;
  readonly acceptsImages: boolean;
  readonly family: ImageFamily;
}

/**
 * A turn's images: the active note's embeds (its chip marked `active`), read when the model accepts
 * images, else named in one problem each ("images not sent: <model> does not accept images");
 * images embedded in the other attached notes are named, not sent. Uses the text the resolver read.
 */
export async function turnImages(
  chips: readonly ContextChip[],
  items: readonly ContextItem[],
  vault: VaultReader,
  target: ImageTarget,
): Promise<ReadImagesResult> {
  const images: ImagePart[] = [];
  const problems: ResolutionProblem[] = [];
  const textOf = (path: string): string | null => items.find((i) => i.kind === 'note' && i.id === noteId(path))?.content ?? null;
  const active = chips.find((c): c is Extract<ContextChip, { kind: 'note' }> => c.kind === 'note' && c.active === true);
  const activeText = active ? textOf(active.path) : null;
  if (active && activeText !== null) {
    if (target.acceptsImages) {
      const read = await readNoteImages(vault, active.path, activeText, { family: target.family });
      images.push(...read.images);
      problems.push(...read.problems);
    } else {
      for (const embed of imageEmbeds(activeText)) {
        if (embed.kind === 'remote') continue;
        problems.push(problem(embed.link, 'image-not-sent', `images not sent: ${target.model} does not accept images`));
      }
    }
  }
  const named = new Set<string>();
  for (const chip of chips) {
    if (chip.kind !== 'note' || chip === active || chip.path === active?.path || named.has(chip.path)) continue;
    named.add(chip.path);
    const text = textOf(chip.path);
    if (text === null) continue;
    for (const embed of imageEmbeds(text)) {
      if (embed.kind === 'remote') continue;
      problems.push(problem(embed.link, 'image-not-sent', `in ${chip.path}: images are sent only from the active note`));
    }
  }
  return { images, problems };
}

/** A turn's engine input with its images added (and the problems naming those not sent), in the chips' order. */
export async function withTurnImages<T extends { readonly items: readonly ContextItem[]; readonly problems?: readonly ResolutionProblem[] }>(
  input: T,
  chips: readonly ContextChip[],
  vault: VaultReader,
  target: ImageTarget,
): Promise<T & { readonly images?: readonly ImagePart[] }> {
  const { images, problems } = await turnImages(chips, input.items, vault, target);
  if (images.length === 0 && problems.length === 0) return input;
  return { ...input, problems: [...(input.problems ?? []), ...problems], ...(images.length > 0 ? { images } : {}) };
}

/** The image target of a provider: Anthropic counts by its own rule, every other provider by OpenAI's. */
export function imageTarget(model: string, kind: string, acceptsImages: boolean): ImageTarget {
  return { model, acceptsImages, family: kind === 'anthropic' ? 'anthropic' : 'openai' };
}
