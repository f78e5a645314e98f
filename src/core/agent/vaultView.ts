import type { ToolHost } from '../ports/toolHost';
import { insideFolder, normalizeFolder } from '../vaultFolders';

/**
 * The vault as the agent's tools see it: inside the project scope, without the hidden folders (the
 * chat folder). Every tool goes through it, so no tool can show what another one refuses.
 */

export type Visibility = 'visible' | 'outside-scope' | 'hidden';

export type Resolution =
  | { readonly kind: 'found'; readonly path: string }
  | { readonly kind: 'refused'; readonly path: string; readonly reason: Exclude<Visibility, 'visible'> }
  | { readonly kind: 'ambiguous'; readonly matches: readonly string[] }
  | { readonly kind: 'missing' };

export class VaultView {
  /** The project folder ('' = the whole vault). */
  readonly scope: string;
  readonly hidden: readonly string[];

  constructor(private readonly host: ToolHost) {
    this.scope = normalizeFolder(host.scope ?? '');
    this.hidden = (host.hidden ?? []).map(normalizeFolder).filter((f) => f !== '');
  }

  visibility(path: string): Visibility {
    if (this.hidden.some((folder) => insideFolder(path, folder))) return 'hidden';
    if (!insideFolder(path, this.scope)) return 'outside-scope';
    return 'visible';
  }

  isVisible(path: string): boolean {
    return this.visibility(path) === 'visible';
  }

  /** Every markdown note the tools may show, sorted by code point. */
  async notes(): Promise<string[]> {
    return (await this.host.vault.listMarkdown()).filter((p) => this.isVisible(p));
  }

  /**
   * A note named the way a person or a wikilink names it: the exact path, the path with `.md`, the
   * path inside the project folder, else a case-insensitive match of the whole path or of its end
   * at a folder boundary (`Tomatoes`, `garden/tomatoes.md`), among the notes the tools may show. A
   * note that exists but is out of sight is refused (by its exact path only: a loose name never
   * reveals a hidden note).
   */
  async resolve(input: string): Promise<Resolution> {
    const all = await this.host.vault.listMarkdown();
    const exists = new Set(all);
    const name = cleanName(input);
    if (name === '') return { kind: 'missing' };
    const exact = [name, `${name}.md`];
    if (this.scope !== '') exact.push(`${this.scope}/${name}`, `${this.scope}/${name}.md`);
    for (const candidate of exact) {
      if (!exists.has(candidate)) continue;
      const visibility = this.visibility(candidate);
      if (visibility === 'visible') return { kind: 'found', path: candidate };
      if (candidate === name || candidate === `${name}.md`) return { kind: 'refused', path: candidate, reason: visibility };
    }
    const lower = name.toLowerCase();
    const ends = [lower, lower.endsWith('.md') ? lower : `${lower}.md`];
    const matches = all.filter((path) => {
      if (!this.isVisible(path)) return false;
      const p = path.toLowerCase();
      return ends.some((end) => p === end || p.endsWith(`/${end}`));
    });
    if (matches.length === 1) return { kind: 'found', path: matches[0] };
    if (matches.length > 1) return { kind: 'ambiguous', matches };
    return { kind: 'missing' };
  }

  /** Why a note cannot be shown, for the model. */
  refusal(path: string, reason: Exclude<Visibility, 'visible'>): string {
    return reason === 'hidden'
      ? `"${path}" is in a folder the tools do not read (saved chats are not sources).`
      : `"${path}" is outside the project folder "${this.scope}": the tools only read notes inside it.`;
  }

  /** The standard error text of a resolution that did not find a visible note, or null when it did. */
  problem(input: string, resolution: Resolution): string | null {
    switch (resolution.kind) {
      case 'found':
        return null;
      case 'refused':
        return this.refusal(resolution.path, resolution.reason);
      case 'ambiguous':
        return `"${input}" matches ${resolution.matches.length} notes; give the full path of one: ${resolution.matches.slice(0, 20).join(', ')}${resolution.matches.length > 20 ? ', …' : ''}.`;
      case 'missing':
        return `no note "${input}"${this.scope ? ` in the project folder "${this.scope}"` : ''}. Find notes with localSearch (by content) or listFolder (by folder), then use the path they show.`;
    }
  }
}

/** A note name as a model may write it: a wikilink, a leading slash or './', backslashes. */
function cleanName(input: string): string {
  let name = input.trim();
  const wiki = /^!?\[\[([^\]]*)\]\]$/.exec(name);
  if (wiki) name = wiki[1].split('|')[0];
  return name
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}
