/** Obsidian's Notice: toasts in the top-right corner. Every message is also logged for tests. */
export const noticeLog: string[] = [];

function container(): HTMLElement {
  let el = document.body.querySelector<HTMLElement>(':scope > .notice-container');
  if (!el) {
    el = document.body.createDiv('notice-container');
  }
  return el;
}

export class Notice {
  noticeEl: HTMLElement;
  containerEl: HTMLElement;
  messageEl: HTMLElement;
  private timer: number | null = null;

  constructor(message: string | DocumentFragment, duration?: number) {
    this.containerEl = container();
    this.noticeEl = createDiv('notice');
    this.messageEl = this.noticeEl.createDiv('notice-message');
    this.setMessage(message);
    this.noticeEl.addEventListener('click', () => this.hide());
    this.containerEl.appendChild(this.noticeEl);
    const ms = duration ?? 5000;
    if (ms > 0) this.timer = window.setTimeout(() => this.hide(), ms);
  }

  setMessage(message: string | DocumentFragment): this {
    this.messageEl.textContent = '';
    if (typeof message === 'string') this.messageEl.textContent = message;
    else this.messageEl.appendChild(message);
    noticeLog.push(this.messageEl.textContent ?? '');
    return this;
  }

  hide(): void {
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.noticeEl.remove();
  }
}
