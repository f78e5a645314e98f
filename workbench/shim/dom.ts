/**
 * The helpers Obsidian adds to DOM prototypes and to the global scope (createEl, createDiv, setText,
 * empty, addClass, find, onClickEvent, instanceOf, activeDocument…). Importing this module installs
 * them once, before the plugin bundle is evaluated.
 */

import { def, installLanguageHelpers } from './language';

type Attrs = Record<string, string | number | boolean | null>;
interface ElInfo {
  cls?: string | string[];
  text?: string | DocumentFragment;
  attr?: Attrs;
  title?: string;
  parent?: Node;
  value?: string;
  type?: string;
  prepend?: boolean;
  placeholder?: string;
  href?: string;
}


function setAttr(el: Element, name: string, value: string | number | boolean | null): void {
  if (value === null || value === false) el.removeAttribute(name);
  else el.setAttribute(name, value === true ? '' : String(value));
}

function addClasses(el: Element, cls: string | string[] | undefined): void {
  if (!cls) return;
  const list = Array.isArray(cls) ? cls : cls.split(' ');
  for (const c of list) if (c) el.classList.add(c);
}

function applyInfo(el: HTMLElement | SVGElement, o: ElInfo | string | undefined, parent: Node | null): void {
  const info: ElInfo = typeof o === 'string' ? { cls: o } : (o ?? {});
  addClasses(el, info.cls);
  if (info.text !== undefined) {
    if (typeof info.text === 'string') el.textContent = info.text;
    else el.appendChild(info.text);
  }
  if (info.attr) for (const [k, v] of Object.entries(info.attr)) setAttr(el, k, v);
  if (info.title !== undefined) el.setAttribute('title', info.title);
  if (info.value !== undefined && 'value' in el) (el as HTMLInputElement).value = info.value;
  if (info.type !== undefined) el.setAttribute('type', info.type);
  if (info.placeholder !== undefined) el.setAttribute('placeholder', info.placeholder);
  if (info.href !== undefined) el.setAttribute('href', info.href);
  const target = info.parent ?? parent;
  if (target) {
    if (info.prepend) target.insertBefore(el, target.firstChild);
    else target.appendChild(el);
  }
}

function makeEl(parent: Node | null, tag: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void): HTMLElement {
  const doc = parent?.ownerDocument ?? document;
  const el = doc.createElement(tag);
  applyInfo(el, o, parent);
  cb?.(el);
  return el;
}

function makeSvg(parent: Node | null, tag: string, o?: ElInfo | string, cb?: (el: SVGElement) => void): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  applyInfo(el, o, parent);
  cb?.(el);
  return el;
}

type Listener = (this: HTMLElement, ev: Event, delegateTarget: HTMLElement) => unknown;
interface Delegated { selector: string; listener: Listener; options?: boolean | AddEventListenerOptions; callback: (ev: Event) => void }
const delegated = new WeakMap<EventTarget, Map<string, Delegated[]>>();

function on(this: HTMLElement | Document, type: string, selector: string, listener: Listener, options?: boolean | AddEventListenerOptions): void {
  const callback = (ev: Event): void => {
    const target = ev.target;
    if (!(target instanceof Element)) return;
    const match = target.closest(selector);
    if (match instanceof HTMLElement && (this === match || (this as Node).contains(match))) listener.call(match, ev, match);
  };
  let byType = delegated.get(this);
  if (!byType) {
    byType = new Map<string, Delegated[]>();
    delegated.set(this, byType);
  }
  const list = byType.get(type) ?? [];
  list.push({ selector, listener, options, callback });
  byType.set(type, list);
  this.addEventListener(type, callback, options);
}

function off(this: HTMLElement | Document, type: string, selector: string, listener: Listener, options?: boolean | AddEventListenerOptions): void {
  const list = delegated.get(this)?.get(type);
  if (!list) return;
  const i = list.findIndex((d) => d.selector === selector && d.listener === listener);
  if (i < 0) return;
  const [d] = list.splice(i, 1);
  this.removeEventListener(type, d.callback, options);
}

let installed = false;

export function installDomHelpers(): void {
  if (installed) return;
  installed = true;
  const N = Node.prototype;
  const E = Element.prototype;
  const H = HTMLElement.prototype;
  const S = SVGElement.prototype;
  const F = DocumentFragment.prototype;

  def(N, 'createEl', function (this: Node, tag: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void) { return makeEl(this, tag, o, cb); });
  def(N, 'createDiv', function (this: Node, o?: ElInfo | string, cb?: (el: HTMLElement) => void) { return makeEl(this, 'div', o, cb); });
  def(N, 'createSpan', function (this: Node, o?: ElInfo | string, cb?: (el: HTMLElement) => void) { return makeEl(this, 'span', o, cb); });
  def(N, 'createSvg', function (this: Node, tag: string, o?: ElInfo | string, cb?: (el: SVGElement) => void) { return makeSvg(this, tag, o, cb); });
  def(N, 'detach', function (this: Node) { this.parentNode?.removeChild(this); });
  def(N, 'empty', function (this: Node) { while (this.firstChild) this.removeChild(this.firstChild); });
  def(N, 'insertAfter', function (this: Node, node: Node, child: Node | null) {
    this.insertBefore(node, child ? child.nextSibling : this.firstChild);
    return node;
  });
  def(N, 'indexOf', function (this: Node, other: Node) { return Array.prototype.indexOf.call(this.childNodes, other); });
  def(N, 'setChildrenInPlace', function (this: Node, children: Node[]) {
    while (this.firstChild) this.removeChild(this.firstChild);
    for (const c of children) this.appendChild(c);
  });
  def(N, 'appendText', function (this: Node, val: string) { this.appendChild(document.createTextNode(val)); });
  def(N, 'instanceOf', function (this: Node, type: new () => unknown) { return this instanceof type; });
  Object.defineProperty(N, 'doc', { configurable: true, get(this: Node) { return this.ownerDocument ?? document; } });
  Object.defineProperty(N, 'win', { configurable: true, get(this: Node) { return (this.ownerDocument ?? document).defaultView ?? window; } });
  Object.defineProperty(N, 'constructorWin', { configurable: true, get() { return window; } });

  def(E, 'getText', function (this: Element) { return this.textContent ?? ''; });
  def(E, 'setText', function (this: Element, val: string | DocumentFragment) {
    if (typeof val === 'string') this.textContent = val;
    else { this.textContent = ''; this.appendChild(val); }
  });
  def(E, 'addClass', function (this: Element, ...classes: string[]) { for (const c of classes) if (c) this.classList.add(c); });
  def(E, 'addClasses', function (this: Element, classes: string[]) { for (const c of classes) if (c) this.classList.add(c); });
  def(E, 'removeClass', function (this: Element, ...classes: string[]) { for (const c of classes) if (c) this.classList.remove(c); });
  def(E, 'removeClasses', function (this: Element, classes: string[]) { for (const c of classes) if (c) this.classList.remove(c); });
  def(E, 'toggleClass', function (this: Element, classes: string | string[], value: boolean) {
    for (const c of Array.isArray(classes) ? classes : [classes]) if (c) this.classList.toggle(c, value);
  });
  def(E, 'hasClass', function (this: Element, cls: string) { return this.classList.contains(cls); });
  def(E, 'setAttr', function (this: Element, name: string, value: string | number | boolean | null) { setAttr(this, name, value); });
  def(E, 'setAttrs', function (this: Element, obj: Attrs) { for (const [k, v] of Object.entries(obj)) setAttr(this, k, v); });
  def(E, 'getAttr', function (this: Element, name: string) { return this.getAttribute(name); });
  def(E, 'matchParent', function (this: Element, selector: string, lastParent?: Element) {
    const found = this.closest(selector);
    if (!found || !lastParent) return found;
    return found !== lastParent && lastParent.contains(found) ? found : null;
  });
  def(E, 'getCssPropertyValue', function (this: Element, property: string, pseudo?: string) {
    return getComputedStyle(this, pseudo).getPropertyValue(property);
  });
  def(E, 'isActiveElement', function (this: Element) { return this.ownerDocument.activeElement === this; });
  def(E, 'find', function (this: Element, selector: string) { return this.querySelector(selector); });
  def(E, 'findAll', function (this: Element, selector: string) { return Array.from(this.querySelectorAll(selector)); });
  def(E, 'findAllSelf', function (this: Element, selector: string) {
    const all = Array.from(this.querySelectorAll(selector));
    return this.matches(selector) ? [this, ...all] : all;
  });
  def(F, 'find', function (this: DocumentFragment, selector: string) { return this.querySelector(selector); });
  def(F, 'findAll', function (this: DocumentFragment, selector: string) { return Array.from(this.querySelectorAll(selector)); });

  const setCssStyles = function (this: HTMLElement | SVGElement, styles: Partial<CSSStyleDeclaration>) { Object.assign(this.style, styles); };
  const setCssProps = function (this: HTMLElement | SVGElement, props: Record<string, string>) {
    for (const [k, v] of Object.entries(props)) this.style.setProperty(k, v);
  };
  def(H, 'setCssStyles', setCssStyles);
  def(H, 'setCssProps', setCssProps);
  def(S, 'setCssStyles', setCssStyles);
  def(S, 'setCssProps', setCssProps);
  def(H, 'show', function (this: HTMLElement) { this.style.removeProperty('display'); });
  def(H, 'hide', function (this: HTMLElement) { this.style.setProperty('display', 'none'); });
  def(H, 'toggle', function (this: HTMLElement, show: boolean) { if (show) this.style.removeProperty('display'); else this.style.setProperty('display', 'none'); });
  def(H, 'toggleVisibility', function (this: HTMLElement, visible: boolean) { this.style.visibility = visible ? '' : 'hidden'; });
  def(H, 'isShown', function (this: HTMLElement) { return this.isConnected && this.offsetParent !== null; });
  Object.defineProperty(H, 'innerWidth', { configurable: true, get(this: HTMLElement) {
    const s = getComputedStyle(this);
    return this.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  } });
  Object.defineProperty(H, 'innerHeight', { configurable: true, get(this: HTMLElement) {
    const s = getComputedStyle(this);
    return this.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
  } });
  def(H, 'on', on);
  def(H, 'off', off);
  def(Document.prototype, 'on', on);
  def(Document.prototype, 'off', off);
  def(H, 'onClickEvent', function (this: HTMLElement, listener: (ev: MouseEvent) => unknown, options?: boolean | AddEventListenerOptions) {
    this.addEventListener('click', listener, options);
    this.addEventListener('auxclick', listener, options);
  });
  def(H, 'onNodeInserted', function (this: HTMLElement, listener: () => unknown, once?: boolean) {
    let wasConnected = this.isConnected;
    const observer = new MutationObserver(() => {
      if (this.isConnected && !wasConnected) {
        listener();
        if (once) observer.disconnect();
      }
      wasConnected = this.isConnected;
    });
    observer.observe(document, { childList: true, subtree: true });
    return () => observer.disconnect();
  });
  def(H, 'onWindowMigrated', function () { return () => undefined; });
  def(H, 'trigger', function (this: HTMLElement, eventType: string) { this.dispatchEvent(new Event(eventType, { bubbles: true })); });

  def(UIEvent.prototype, 'instanceOf', function (this: UIEvent, type: new (...data: unknown[]) => unknown) { return this instanceof type; });
  Object.defineProperty(UIEvent.prototype, 'targetNode', { configurable: true, get(this: UIEvent) { return this.target instanceof Node ? this.target : null; } });
  Object.defineProperty(UIEvent.prototype, 'win', { configurable: true, get() { return window; } });
  Object.defineProperty(UIEvent.prototype, 'doc', { configurable: true, get() { return document; } });

  installLanguageHelpers();

  const g = globalThis as unknown as Record<string, unknown>;
  g.createEl = (tag: string, o?: ElInfo | string, cb?: (el: HTMLElement) => void) => makeEl(null, tag, o, cb);
  g.createDiv = (o?: ElInfo | string, cb?: (el: HTMLElement) => void) => makeEl(null, 'div', o, cb);
  g.createSpan = (o?: ElInfo | string, cb?: (el: HTMLElement) => void) => makeEl(null, 'span', o, cb);
  g.createSvg = (tag: string, o?: ElInfo | string, cb?: (el: SVGElement) => void) => makeSvg(null, tag, o, cb);
  g.createFragment = (cb?: (el: DocumentFragment) => void) => {
    const frag = document.createDocumentFragment();
    cb?.(frag);
    return frag;
  };
  g.isBoolean = (obj: unknown) => typeof obj === 'boolean';
  g.fish = (selector: string) => document.querySelector(selector);
  g.fishAll = (selector: string) => Array.from(document.querySelectorAll(selector));
  g.sleep = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));
  g.nextFrame = () => new Promise<void>((resolve) => window.requestAnimationFrame(() => resolve()));
  g.activeWindow = window;
  g.activeDocument = document;
}
