import { Marked, type TokenizerAndRendererExtension, type Tokens } from 'marked';
import type { App } from './app';
import { Component } from './component';

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

interface WikiToken extends Tokens.Generic {
  type: 'wikilink';
  raw: string;
  target: string;
  alias: string;
  embed: boolean;
}

const wikilink: TokenizerAndRendererExtension = {
  name: 'wikilink',
  level: 'inline',
  start: (src: string) => {
    const i = src.search(/!?\[\[/);
    return i < 0 ? undefined : i;
  },
  tokenizer(src: string): WikiToken | undefined {
    const m = /^(!?)\[\[([^\]|\n]+)(?:\|([^\]\n]*))?\]\]/.exec(src);
    if (!m) return undefined;
    return { type: 'wikilink', raw: m[0], target: m[2].trim(), alias: (m[3] ?? m[2]).trim(), embed: m[1] === '!' };
  },
  renderer(token) {
    const t = token as WikiToken;
    const cls = t.embed ? 'internal-link internal-embed' : 'internal-link';
    return `<a data-href="${escapeHtml(t.target)}" href="${escapeHtml(t.target)}" class="${cls}" target="_blank" rel="noopener nofollow">${escapeHtml(t.alias)}</a>`;
  },
};

const tag: TokenizerAndRendererExtension = {
  name: 'obsidianTag',
  level: 'inline',
  start: (src: string) => {
    const m = /(^|\s)#[\p{L}_/-]/u.exec(src);
    return m ? m.index + m[1].length : undefined;
  },
  tokenizer(src: string) {
    const m = /^#([\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)/u.exec(src);
    return m ? { type: 'obsidianTag', raw: m[0], tag: m[1] } : undefined;
  },
  renderer(token) {
    const name = (token as Tokens.Generic & { tag: string }).tag;
    return `<a href="#${escapeHtml(name)}" class="tag" target="_blank" rel="noopener nofollow">#${escapeHtml(name)}</a>`;
  },
};

const marked = new Marked({ gfm: true, breaks: false, extensions: [wikilink, tag] });
marked.use({
  renderer: {
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const t = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${t} class="external-link" target="_blank" rel="noopener nofollow">${text}</a>`;
    },
  },
});

const DROP = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'LINK', 'META', 'BASE', 'FORM']);

/** Removes what Obsidian's sanitizer removes: scripts, event handlers, javascript: URLs. */
function sanitize(root: Element): void {
  for (const el of Array.from(root.querySelectorAll('*'))) {
    if (DROP.has(el.tagName)) {
      el.remove();
      continue;
    }
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value.trim().toLowerCase();
      if (name.startsWith('on') || ((name === 'href' || name === 'src' || name === 'xlink:href') && value.startsWith('javascript:'))) {
        el.removeAttribute(attr.name);
      }
    }
  }
}

function decorate(root: Element): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    const lang = Array.from(code?.classList ?? []).find((c) => c.startsWith('language-'));
    if (lang) pre.classList.add(lang);
    const button = createEl('button', { cls: 'copy-code-button', text: 'Copy' });
    button.addEventListener('click', () => {
      void navigator.clipboard?.writeText(code?.textContent ?? '').catch(() => undefined);
    });
    pre.appendChild(button);
  }
  for (const li of Array.from(root.querySelectorAll('li'))) {
    const box = li.querySelector(':scope > input[type=checkbox]');
    if (box) {
      li.classList.add('task-list-item');
      box.classList.add('task-list-item-checkbox');
      if ((box as HTMLInputElement).checked) li.classList.add('is-checked');
    }
  }
}

/** Renders markdown to DOM nodes (sanitized), as Obsidian's reading view would, in broad strokes. */
export function renderMarkdownInto(markdown: string, el: HTMLElement): void {
  const body = markdown.replace(/^---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/, '');
  const html = marked.parse(body, { async: false });
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  sanitize(doc.body);
  decorate(doc.body);
  for (const node of Array.from(doc.body.childNodes)) el.appendChild(document.adoptNode(node));
}

export class MarkdownRenderChild extends Component {
  containerEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.containerEl = containerEl;
  }
}

export abstract class MarkdownRenderer extends MarkdownRenderChild {
  /** Renders markdown into `el` (appending, like Obsidian). Wikilinks become `a.internal-link`. */
  static render(_app: App, markdown: string, el: HTMLElement, _sourcePath: string, _component: Component): Promise<void> {
    renderMarkdownInto(markdown, el);
    return Promise.resolve();
  }

  /** @deprecated in Obsidian; kept because plugins still call it. */
  static renderMarkdown(markdown: string, el: HTMLElement, _sourcePath: string, _component: Component): Promise<void> {
    renderMarkdownInto(markdown, el);
    return Promise.resolve();
  }
}

export class MarkdownPreviewRenderer {
  static registerPostProcessor(): void {}
  static unregisterPostProcessor(): void {}
}

/** Obsidian's htmlToMarkdown, reduced to text: enough for pasting plain content. */
export function htmlToMarkdown(html: string | HTMLElement | Document | DocumentFragment): string {
  if (typeof html === 'string') return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return html.textContent ?? '';
}

export function sanitizeHTMLToDom(html: string): DocumentFragment {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  sanitize(doc.body);
  const frag = createFragment();
  for (const node of Array.from(doc.body.childNodes)) frag.appendChild(document.adoptNode(node));
  return frag;
}
