import { setIcon, type Component } from 'obsidian';
import { retryStatusText, retryWaitDetail, secondsUntil } from '../../core/chat/retryStatus';
import type { RetryNotice } from '../../core/ports/chatModel';

/**
 * The retry status line in the message being answered: "Rate limited: retrying (2/3) in 20 s",
 * counting down once a second from the wait's end (computed here, from the notice's delay, when the
 * notice arrives), with a Cancel button that stops the send. One element, moved into the streaming
 * message each time the list renders.
 */
export class RetryStatusLine {
  private el: HTMLElement | null = null;
  private text: HTMLElement | null = null;
  private notice: RetryNotice | null = null;
  private endsAt = 0;
  private timer: number | null = null;

  constructor(
    private readonly owner: Component,
    private readonly cancel: () => void,
  ) {
    owner.register(() => this.stopTimer());
  }

  /** Show `notice` in `message` (the streaming reply), or remove the line (no notice, no message). */
  render(message: HTMLElement | null, notice: RetryNotice | null): void {
    if (!message || !notice) {
      this.hide();
      return;
    }
    if (notice !== this.notice) {
      this.notice = notice;
      this.endsAt = Date.now() + notice.delayMs;
      this.startTimer();
    }
    const el = this.el ?? this.build();
    el.setAttr('title', retryWaitDetail(notice));
    message.addClass('has-retry');
    message.appendChild(el);
    this.update();
  }

  private build(): HTMLElement {
    const el = createDiv({ cls: 'strata-retry-status', attr: { role: 'status', 'aria-live': 'polite' } });
    setIcon(el.createSpan({ cls: 'strata-retry-status-icon' }), 'timer');
    this.text = el.createSpan({ cls: 'strata-retry-status-text' });
    const cancel = el.createEl('button', { cls: 'strata-retry-cancel', text: 'Cancel', attr: { 'aria-label': 'Cancel: stop sending this message' } });
    cancel.addEventListener('click', () => this.cancel());
    this.el = el;
    return el;
  }

  private update(): void {
    if (!this.notice || !this.text) return;
    const left = secondsUntil(this.endsAt, Date.now());
    this.text.setText(retryStatusText(this.notice, left));
    if (left === 0) this.stopTimer();
  }

  private startTimer(): void {
    this.stopTimer();
    this.timer = window.setInterval(() => this.update(), 1000);
  }

  private stopTimer(): void {
    if (this.timer !== null) window.clearInterval(this.timer);
    this.timer = null;
  }

  private hide(): void {
    this.stopTimer();
    this.notice = null;
    this.el?.parentElement?.removeClass('has-retry');
    this.el?.remove();
  }
}
