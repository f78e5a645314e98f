/** Obsidian's Editor, over a plain textarea (the workbench's source-mode note pane). */
export interface EditorPosition {
  line: number;
  ch: number;
}
export interface EditorRange {
  from: EditorPosition;
  to: EditorPosition;
}
export interface EditorSelection {
  anchor: EditorPosition;
  head: EditorPosition;
}

export class Editor {
  constructor(readonly textarea: HTMLTextAreaElement, private readonly onEdit: () => void) {}

  private text(): string {
    return this.textarea.value;
  }
  offsetToPos(offset: number): EditorPosition {
    const before = this.text().slice(0, offset);
    const line = before.split('\n').length - 1;
    return { line, ch: offset - (before.lastIndexOf('\n') + 1) };
  }
  posToOffset(pos: EditorPosition): number {
    const lines = this.text().split('\n');
    let offset = 0;
    for (let i = 0; i < Math.min(pos.line, lines.length); i++) offset += lines[i].length + 1;
    return Math.min(offset + pos.ch, this.text().length);
  }
  getValue(): string {
    return this.text();
  }
  setValue(content: string): void {
    this.textarea.value = content;
    this.onEdit();
  }
  getLine(line: number): string {
    return this.text().split('\n')[line] ?? '';
  }
  setLine(n: number, text: string): void {
    this.replaceRange(text, { line: n, ch: 0 }, { line: n, ch: this.getLine(n).length });
  }
  lineCount(): number {
    return this.text().split('\n').length;
  }
  lastLine(): number {
    return this.lineCount() - 1;
  }
  getSelection(): string {
    return this.text().slice(this.textarea.selectionStart, this.textarea.selectionEnd);
  }
  somethingSelected(): boolean {
    return this.textarea.selectionStart !== this.textarea.selectionEnd;
  }
  getRange(from: EditorPosition, to: EditorPosition): string {
    return this.text().slice(this.posToOffset(from), this.posToOffset(to));
  }
  replaceSelection(replacement: string): void {
    this.textarea.setRangeText(replacement, this.textarea.selectionStart, this.textarea.selectionEnd, 'end');
    this.onEdit();
  }
  replaceRange(replacement: string, from: EditorPosition, to?: EditorPosition): void {
    const start = this.posToOffset(from);
    this.textarea.setRangeText(replacement, start, to ? this.posToOffset(to) : start, 'preserve');
    this.onEdit();
  }
  getCursor(which: 'from' | 'to' | 'head' | 'anchor' = 'head'): EditorPosition {
    const { selectionStart, selectionEnd, selectionDirection } = this.textarea;
    const backward = selectionDirection === 'backward';
    const offsets = { from: selectionStart, to: selectionEnd, head: backward ? selectionStart : selectionEnd, anchor: backward ? selectionEnd : selectionStart };
    return this.offsetToPos(offsets[which]);
  }
  listSelections(): EditorSelection[] {
    return [{ anchor: this.getCursor('anchor'), head: this.getCursor('head') }];
  }
  setSelection(anchor: EditorPosition, head?: EditorPosition): void {
    const a = this.posToOffset(anchor);
    const h = head ? this.posToOffset(head) : a;
    this.textarea.setSelectionRange(Math.min(a, h), Math.max(a, h), h < a ? 'backward' : 'forward');
  }
  setSelections(ranges: EditorSelection[], main?: number): void {
    const r = ranges[main ?? 0] ?? ranges[0];
    if (r) this.setSelection(r.anchor, r.head);
  }
  setCursor(pos: EditorPosition | number, ch?: number): void {
    const p = typeof pos === 'number' ? { line: pos, ch: ch ?? 0 } : pos;
    this.setSelection(p, p);
  }
  wordAt(pos: EditorPosition): EditorRange | null {
    const line = this.getLine(pos.line);
    let s = pos.ch;
    let e = pos.ch;
    while (s > 0 && /\w/.test(line[s - 1])) s--;
    while (e < line.length && /\w/.test(line[e])) e++;
    return s === e ? null : { from: { line: pos.line, ch: s }, to: { line: pos.line, ch: e } };
  }
  focus(): void {
    this.textarea.focus();
  }
  blur(): void {
    this.textarea.blur();
  }
  hasFocus(): boolean {
    return document.activeElement === this.textarea;
  }
  getDoc(): this {
    return this;
  }
  refresh(): void {}
  scrollIntoView(_range: EditorRange, _center?: boolean): void {}
  scrollTo(_x?: number | null, _y?: number | null): void {}
  getScrollInfo(): { top: number; left: number } {
    return { top: this.textarea.scrollTop, left: this.textarea.scrollLeft };
  }
  undo(): void {}
  redo(): void {}
  exec(_command: string): void {}
  transaction(tx: { changes?: { from: EditorPosition; to?: EditorPosition; text: string }[]; selection?: { from: EditorPosition; to?: EditorPosition } }): void {
    for (const c of [...(tx.changes ?? [])].reverse()) this.replaceRange(c.text, c.from, c.to);
    if (tx.selection) this.setSelection(tx.selection.from, tx.selection.to);
  }
}
