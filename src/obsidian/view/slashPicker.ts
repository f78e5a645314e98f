import { Notice, setIcon } from 'obsidian';
import type { ContextChip } from '../../core/context/items';
import type { PromptExpansion } from '../../core/slashPrompts/expand';
import type { PromptLibrary } from '../../core/slashPrompts/library';
import { matchProblems, matchSlash, slashQuery, type SlashMatch } from '../../core/slashPrompts/match';
import type { CustomPrompt, PromptProblem } from '../../core/slashPrompts/promptNote';

/** The custom prompts, as the composer sees them. */
export interface PromptSource {
  library(): PromptLibrary;
  /** The prompts folder (normalized), named in the picker's hints. */
  folder(): string;
  /** Fill a prompt's placeholders now (`activeNote`: the note the composer shows as active). */
  expand(prompt: CustomPrompt, input: string, activeNote: string | null): PromptExpansion;
}

export interface SlashHost {
  readonly source: PromptSource;
  activeNote(): string | null;
  addChip(chip: ContextChip): void;
}

/**
 * The `/` picker: typing `/` at the start of a message lists the custom prompts (fuzzy by name,
 * with their descriptions); arrows move, Enter or Tab picks, Escape closes. Picking puts the
 * prompt's text, filled in, in the composer for the user to review and send; the note it names
 * with `{activeNote}` is attached. Prompt notes that cannot be read are listed with the reason.
 */
export class SlashPicker {
  readonly el: HTMLElement;
  private state: { matches: SlashMatch[]; problems: PromptProblem[]; selected: number; total: number } | null = null;

  constructor(
    parent: HTMLElement,
    private readonly textarea: HTMLTextAreaElement,
    private readonly host: SlashHost,
  ) {
    this.el = parent.createDiv({ cls: 'strata-suggest strata-slash-suggest', attr: { role: 'listbox', 'aria-label': 'Prompts' } });
    this.el.hide();
  }

  get isOpen(): boolean {
    return this.state !== null;
  }

  /** After the text changed: opens, updates or closes the picker. True while the text is a `/` command. */
  update(): boolean {
    const caret = this.textarea.selectionStart ?? this.textarea.value.length;
    const query = slashQuery(this.textarea.value.slice(0, caret));
    if (query === null) {
      this.close();
      return false;
    }
    const library = this.host.source.library();
    const matches = matchSlash(query, library.prompts);
    const selected = this.state ? Math.min(this.state.selected, Math.max(0, matches.length - 1)) : 0;
    this.state = { matches, problems: matchProblems(query, library.problems), selected, total: library.prompts.length };
    this.render();
    return true;
  }

  /** Keys while open: true when the picker handled the key (the composer does nothing more). */
  onKeyDown(event: KeyboardEvent): boolean {
    const state = this.state;
    if (!state || event.isComposing) return false;
    const n = state.matches.length;
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && n > 0) {
      event.preventDefault();
      state.selected = (state.selected + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
      this.render();
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      event.preventDefault();
      // Enter on "No matching prompts" picks nothing and sends nothing: the picker closes, the text stays.
      if (n > 0) this.pick(state.matches[state.selected]);
      else this.close();
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      this.close();
      return true;
    }
    return false;
  }

  close(): void {
    if (!this.state) return;
    this.state = null;
    this.el.empty();
    this.el.hide();
  }

  private render(): void {
    const state = this.state;
    this.el.empty();
    if (!state) {
      this.el.hide();
      return;
    }
    this.el.show();
    const folder = this.host.source.folder();
    if (state.matches.length === 0 && state.problems.length === 0) {
      const text =
        state.total === 0
          ? folder
            ? `No prompts yet. Add a note to ${folder}/: its name is the prompt's name, its text the prompt.`
            : 'No prompts folder is set (Settings → Strata → Prompts folder).'
          : 'No matching prompts';
      this.el.createDiv({ cls: 'strata-suggest-empty', text });
    }
    state.matches.forEach((match, index) => {
      const item = this.el.createDiv({
        cls: 'strata-suggest-item strata-slash-item',
        attr: { role: 'option', 'data-prompt': match.prompt.name, 'aria-selected': String(index === state.selected) },
      });
      item.toggleClass('is-selected', index === state.selected);
      setIcon(item.createSpan({ cls: 'strata-suggest-icon' }), 'square-slash');
      const text = item.createDiv({ cls: 'strata-slash-text' });
      text.createSpan({ cls: 'strata-suggest-label', text: match.prompt.name });
      const detail = match.input ? `Runs with "${match.input}"` : match.prompt.description;
      if (detail) text.createSpan({ cls: 'strata-slash-description', text: detail });
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.pick(match);
      });
    });
    for (const problem of state.problems) {
      const row = this.el.createDiv({ cls: 'strata-slash-problem', attr: { 'data-path': problem.path, 'aria-label': problem.path } });
      setIcon(row.createSpan({ cls: 'strata-suggest-icon' }), 'alert-triangle');
      row.createSpan({ text: `${problem.name} cannot be used: ${problem.problem}.` });
    }
    this.el.querySelector('.is-selected')?.scrollIntoView?.({ block: 'nearest' });
  }

  /** Put the prompt, filled in, where `/query` was; the text after the caret stays. */
  private pick(match: SlashMatch | undefined): void {
    if (!match) return;
    const expansion = this.host.source.expand(match.prompt, match.input, this.host.activeNote());
    if (!expansion.ok) {
      new Notice(expansion.error);
      return;
    }
    const value = this.textarea.value;
    const caret = this.textarea.selectionStart ?? value.length;
    this.close();
    insertExpansion(this.textarea, expansion, 0, caret, (chip) => this.host.addChip(chip));
  }
}

/**
 * Replace `from`–`to` of the composer's text with a prompt's expansion, attach its notes and put the
 * caret where the prompt waits for input (or after it).
 */
export function insertExpansion(
  textarea: HTMLTextAreaElement,
  expansion: Extract<PromptExpansion, { ok: true }>,
  from: number,
  to: number,
  addChip: (chip: ContextChip) => void,
): void {
  const value = textarea.value;
  const rest = value.slice(to);
  const joined = rest && !/^\s/.test(rest) ? `${expansion.text}\n\n` : expansion.text;
  textarea.value = value.slice(0, from) + joined + rest;
  const caret = from + (expansion.caret ?? expansion.text.length);
  for (const path of expansion.attach) addChip({ kind: 'note', path });
  textarea.focus();
  textarea.setSelectionRange(caret, caret);
}
