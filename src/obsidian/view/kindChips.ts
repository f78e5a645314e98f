import { setIcon, TFile, type App } from 'obsidian';
import type { ContextChip } from '../../core/context/items';
import { CanvasError, parseCanvas } from '../../core/context/canvas/canvasFile';
import { canvasFiles } from '../../core/context/canvas/canvasText';
import { dataviewBlocks } from '../../core/context/dataview/dataviewBlocks';
import { obsidianDataview } from '../dataviewApi';

/**
 * What a chip of issue 31's kinds adds to the composer's row: a canvas chip's "Attach linked notes"
 * button (its file nodes' notes as note chips), and on a note with Dataview blocks, whether their
 * results are sent (Dataview enabled) or only their queries (the chip says results are unavailable).
 */
export interface KindChipHost {
  readonly app: App;
  /** Attach these chips (the composer draws them). */
  add(chips: readonly ContextChip[]): void;
  /** Say something under the row. */
  say(text: string): void;
}

export function decorateKindChip(host: KindChipHost, chip: ContextChip, el: HTMLElement): void {
  if (chip.kind === 'canvas') canvasButton(host, chip.path, el);
  else if (chip.kind === 'note') void dataviewHint(host.app, chip.path, el);
}

function canvasButton(host: KindChipHost, path: string, el: HTMLElement): void {
  const button = el.createEl('button', { cls: 'strata-chip-action clickable-icon', attr: { 'aria-label': 'Attach linked notes: the notes on this canvas' } });
  setIcon(button, 'files');
  button.addEventListener('click', () => void attachLinked(host, path));
  const remove = el.querySelector('.strata-chip-remove');
  if (remove) el.insertBefore(button, remove);
}

async function attachLinked(host: KindChipHost, path: string): Promise<void> {
  const file = host.app.vault.getFileByPath(path);
  if (!file) return host.say(`${path} is not in the vault any more.`);
  let files: string[];
  try {
    files = canvasFiles(parseCanvas(await host.app.vault.cachedRead(file)));
  } catch (error) {
    return host.say(error instanceof CanvasError ? `${file.basename}: ${error.message}` : `${file.basename} could not be read.`);
  }
  const notes = files.filter((p) => host.app.vault.getAbstractFileByPath(p) instanceof TFile && /\.md$/i.test(p));
  if (notes.length === 0) return host.say(`${file.basename} links no notes.`);
  host.add(notes.map((p) => ({ kind: 'note', path: p })));
  host.say(notes.length === 1 ? `Attached the note on ${file.basename}.` : `Attached the ${notes.length} notes on ${file.basename}.`);
}

/** A note's Dataview blocks, on its chip: their count, and "results unavailable" without Dataview. */
async function dataviewHint(app: App, path: string, el: HTMLElement): Promise<void> {
  const file = app.vault.getFileByPath(path);
  if (!file || file.extension !== 'md') return;
  const blocks = dataviewBlocks(await app.vault.cachedRead(file));
  if (blocks.length === 0 || !el.isConnected) return;
  const enabled = obsidianDataview(app) !== undefined;
  const js = blocks.filter((b) => b.lang === 'dataviewjs').length;
  const what = `${blocks.length} Dataview block${blocks.length === 1 ? '' : 's'}`;
  const detail = !enabled
    ? `${what}: results unavailable (Dataview is not enabled); their queries are sent as text.`
    : `${what}: results sent from Dataview, each after the note${js > 0 ? `; JavaScript blocks (${js}) are sent as code, their result unavailable` : ''}.`;
  const hint = el.createSpan({ cls: `strata-chip-hint${enabled ? '' : ' is-unavailable'}`, text: enabled ? `+${blocks.length} Dataview` : 'Dataview results unavailable' });
  hint.setAttr('aria-label', detail);
  el.setAttr('aria-label', `${el.getAttr('aria-label') ?? path}\n${detail}`);
  // Before the chip's ✕, which stays last.
  const remove = el.querySelector('.strata-chip-remove');
  if (remove) el.insertBefore(hint, remove);
}
