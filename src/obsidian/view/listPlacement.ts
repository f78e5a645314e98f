/**
 * Keeping a scrolled list steady while it changes: its children are placed by moving only what
 * changed (a kept message keeps its layout, its focus and its place), and the message in view
 * stays where it was when messages are added above it.
 */

/** Makes `parent`'s children exactly `nodes`, in order, inserting and removing only what differs. */
export function placeChildren(parent: HTMLElement, nodes: readonly HTMLElement[]): void {
  const wanted = new Set<Element>(nodes);
  for (const child of Array.from(parent.children)) if (!wanted.has(child)) child.remove();
  let cursor = parent.firstElementChild;
  for (const node of nodes) {
    if (node === cursor) cursor = cursor.nextElementSibling;
    else parent.insertBefore(node, cursor);
  }
}

export interface ScrollAnchor {
  readonly el: Element;
  /** Its top, in pixels below the list's top edge. */
  readonly offset: number;
}

/** The first child at least partly in view (other than `skip`) and where it is. */
export function scrollAnchorOf(list: HTMLElement, skip: Element | null): ScrollAnchor | null {
  const top = list.getBoundingClientRect().top;
  const children = list.children;
  // Children stack downwards: the first whose bottom is below the list's top, by bisection.
  let lo = 0;
  let hi = children.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (children[mid].getBoundingClientRect().bottom > top) hi = mid;
    else lo = mid + 1;
  }
  const el = children[lo] === skip ? children[lo + 1] : children[lo];
  return el ? { el, offset: el.getBoundingClientRect().top - top } : null;
}

/** Scrolls `list` so that the anchor is where it was; false when it is no longer in the list. */
export function restoreScrollAnchor(list: HTMLElement, anchor: ScrollAnchor | null): boolean {
  if (!anchor || anchor.el.parentElement !== list) return false;
  const moved = anchor.el.getBoundingClientRect().top - list.getBoundingClientRect().top - anchor.offset;
  if (Math.abs(moved) >= 0.5) list.scrollTop += moved;
  return true;
}
