import { Platform, type Component } from 'obsidian';

/**
 * On phones and tablets the on-screen keyboard can cover the bottom of the page without the page
 * shrinking (iOS, some Android modes): the view is padded by the part of the layout the visible
 * viewport no longer shows, so the composer stays above the keyboard. Where the app already
 * resizes for the keyboard the inset is 0. Nothing happens on desktop.
 */
export function keepAboveKeyboard(owner: Component, el: HTMLElement): void {
  const viewport = activeWindow.visualViewport;
  if (!Platform.isMobile || !viewport) return;
  const update = () => {
    const inset = Math.max(0, Math.round(activeWindow.innerHeight - viewport.height - viewport.offsetTop));
    el.setCssProps({ '--strata-keyboard-inset': `${inset}px` });
    el.toggleClass('is-keyboard-open', inset > 0);
  };
  viewport.addEventListener('resize', update);
  viewport.addEventListener('scroll', update);
  owner.register(() => {
    viewport.removeEventListener('resize', update);
    viewport.removeEventListener('scroll', update);
  });
  update();
}
