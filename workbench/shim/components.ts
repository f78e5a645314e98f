import type { App } from './app';
import { setIcon } from './icons';
import { setTooltip } from './util';

/** Obsidian's UI components (BaseComponent and the controls a Setting or a view can add). */
export abstract class BaseComponent {
  disabled = false;
  then(cb: (component: this) => unknown): this {
    cb(this);
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    return this;
  }
}

export abstract class ValueComponent<T> extends BaseComponent {
  registerOptionListener(listeners: Record<string, (value?: T) => T>, key: string): this {
    listeners[key] = (value?: T) => {
      if (value !== undefined) this.setValue(value);
      return this.getValue();
    };
    return this;
  }
  abstract getValue(): T;
  abstract setValue(value: T): this;
}

export abstract class AbstractTextComponent<T extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
  inputEl: T;
  private changeCb: ((value: string) => unknown) | null = null;
  constructor(inputEl: T) {
    super();
    this.inputEl = inputEl;
    inputEl.addEventListener('input', () => this.onChanged());
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.inputEl.disabled = disabled;
    return this;
  }
  getValue(): string {
    return this.inputEl.value;
  }
  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }
  setPlaceholder(placeholder: string): this {
    this.inputEl.placeholder = placeholder;
    return this;
  }
  onChanged(): void {
    void this.changeCb?.(this.getValue());
  }
  onChange(callback: (value: string) => unknown): this {
    this.changeCb = callback;
    return this;
  }
}

export class TextComponent extends AbstractTextComponent<HTMLInputElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('input', { type: 'text', attr: { spellcheck: 'false' } }));
  }
}

export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('textarea'));
  }
}

export class SearchComponent extends AbstractTextComponent<HTMLInputElement> {
  clearButtonEl: HTMLElement;
  containerEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    const wrap = containerEl.createDiv('search-input-container');
    super(wrap.createEl('input', { type: 'search', attr: { enterkeyhint: 'search', spellcheck: 'false' } }));
    this.containerEl = wrap;
    this.clearButtonEl = wrap.createDiv({ cls: 'search-input-clear-button', attr: { 'aria-label': 'Clear search' } });
    this.clearButtonEl.addEventListener('click', () => {
      this.setValue('');
      this.onChanged();
    });
  }
  setClass(cls: string): this {
    this.containerEl.addClass(cls);
    return this;
  }
}

export class MomentFormatComponent extends TextComponent {
  sampleEl: HTMLElement | null = null;
  setDefaultFormat(_format: string): this {
    return this;
  }
  setSampleEl(el: HTMLElement): this {
    this.sampleEl = el;
    return this;
  }
}

export class ToggleComponent extends ValueComponent<boolean> {
  toggleEl: HTMLElement;
  private value = false;
  private changeCb: ((value: boolean) => unknown) | null = null;
  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = containerEl.createDiv({ cls: 'checkbox-container', attr: { role: 'switch', tabindex: '0', 'aria-checked': 'false' } });
    this.toggleEl.createEl('input', { type: 'checkbox', attr: { tabindex: '-1' } });
    this.toggleEl.addEventListener('click', (evt) => {
      evt.preventDefault();
      this.onClick();
    });
    this.toggleEl.addEventListener('keydown', (evt) => {
      if (evt.key === ' ' || evt.key === 'Enter') {
        evt.preventDefault();
        this.onClick();
      }
    });
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.toggleEl.toggleClass('is-disabled', disabled);
    return this;
  }
  getValue(): boolean {
    return this.value;
  }
  setValue(on: boolean): this {
    const changed = on !== this.value;
    this.value = on;
    this.toggleEl.toggleClass('is-enabled', on);
    this.toggleEl.setAttr('aria-checked', String(on));
    const box = this.toggleEl.querySelector('input');
    if (box) box.checked = on;
    if (changed) void this.changeCb?.(on);
    return this;
  }
  setTooltip(tooltip: string): this {
    setTooltip(this.toggleEl, tooltip);
    return this;
  }
  onClick(): void {
    if (!this.disabled) this.setValue(!this.value);
  }
  onChange(callback: (value: boolean) => unknown): this {
    this.changeCb = callback;
    return this;
  }
}

export class DropdownComponent extends ValueComponent<string> {
  selectEl: HTMLSelectElement;
  private changeCb: ((value: string) => unknown) | null = null;
  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = containerEl.createEl('select', 'dropdown');
    this.selectEl.addEventListener('change', () => void this.changeCb?.(this.selectEl.value));
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.selectEl.disabled = disabled;
    return this;
  }
  addOption(value: string, display: string): this {
    this.selectEl.createEl('option', { value, text: display });
    return this;
  }
  addOptions(options: Record<string, string>): this {
    for (const [value, display] of Object.entries(options)) this.addOption(value, display);
    return this;
  }
  getValue(): string {
    return this.selectEl.value;
  }
  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }
  onChange(callback: (value: string) => unknown): this {
    this.changeCb = callback;
    return this;
  }
}

export class SliderComponent extends ValueComponent<number> {
  sliderEl: HTMLInputElement;
  /** Obsidian 1.13 shows the value inline next to the slider (setDisplayFormat formats it). */
  private valueEl: HTMLElement;
  private changeCb: ((value: number) => unknown) | null = null;
  private format: (value: number) => string = (v) => String(v);
  constructor(containerEl: HTMLElement) {
    super();
    this.sliderEl = containerEl.createEl('input', { type: 'range', cls: 'slider' });
    this.valueEl = containerEl.createSpan({ cls: 'slider-value' });
    this.sliderEl.addEventListener('input', () => {
      this.showValue();
      void this.changeCb?.(this.getValue());
    });
    this.showValue();
  }
  private showValue(): void {
    this.valueEl.setText(this.getValuePretty());
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.sliderEl.disabled = disabled;
    return this;
  }
  setInstant(_instant: boolean): this {
    return this;
  }
  setLimits(min: number | null, max: number | null, step: number | 'any'): this {
    if (min !== null) this.sliderEl.min = String(min);
    if (max !== null) this.sliderEl.max = String(max);
    this.sliderEl.step = String(step);
    this.showValue();
    return this;
  }
  getValue(): number {
    return Number(this.sliderEl.value);
  }
  setValue(value: number): this {
    this.sliderEl.value = String(value);
    this.showValue();
    return this;
  }
  getValuePretty(): string {
    return this.format(this.getValue());
  }
  setDisplayFormat(format: (value: number) => string): this {
    this.format = format;
    this.showValue();
    return this;
  }
  setDynamicTooltip(): this {
    this.sliderEl.addEventListener('input', () => setTooltip(this.sliderEl, this.getValuePretty()));
    return this;
  }
  showTooltip(): void {}
  onChange(callback: (value: number) => unknown): this {
    this.changeCb = callback;
    return this;
  }
}

export class ButtonComponent extends BaseComponent {
  buttonEl: HTMLButtonElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = containerEl.createEl('button');
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.buttonEl.disabled = disabled;
    return this;
  }
  setCta(): this {
    this.buttonEl.addClass('mod-cta');
    return this;
  }
  removeCta(): this {
    this.buttonEl.removeClass('mod-cta');
    return this;
  }
  setWarning(): this {
    this.buttonEl.addClass('mod-warning');
    return this;
  }
  setDestructive(): this {
    this.buttonEl.addClass('mod-destructive');
    return this;
  }
  removeDestructive(): this {
    this.buttonEl.removeClass('mod-destructive');
    return this;
  }
  setTooltip(tooltip: string): this {
    setTooltip(this.buttonEl, tooltip);
    return this;
  }
  setButtonText(name: string): this {
    this.buttonEl.setText(name);
    return this;
  }
  setIcon(icon: string): this {
    setIcon(this.buttonEl, icon);
    return this;
  }
  setClass(cls: string): this {
    this.buttonEl.addClass(cls);
    return this;
  }
  onClick(callback: (evt: MouseEvent) => unknown): this {
    this.buttonEl.addEventListener('click', (evt) => void callback(evt));
    return this;
  }
}

export class ExtraButtonComponent extends BaseComponent {
  extraSettingsEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.extraSettingsEl = containerEl.createDiv({ cls: 'clickable-icon extra-setting-button', attr: { role: 'button', tabindex: '0' } });
  }
  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.extraSettingsEl.toggleClass('is-disabled', disabled);
    return this;
  }
  setTooltip(tooltip: string): this {
    setTooltip(this.extraSettingsEl, tooltip);
    return this;
  }
  setIcon(icon: string): this {
    setIcon(this.extraSettingsEl, icon);
    return this;
  }
  onClick(callback: () => unknown): this {
    this.extraSettingsEl.addEventListener('click', () => {
      if (!this.disabled) void callback();
    });
    return this;
  }
}

export class ProgressBarComponent extends ValueComponent<number> {
  private progressBar: HTMLElement;
  private lineEl: HTMLElement;
  private value = 0;
  constructor(containerEl: HTMLElement) {
    super();
    this.progressBar = containerEl.createDiv('setting-progress-bar');
    this.lineEl = this.progressBar.createDiv('setting-progress-bar-inner');
  }
  getValue(): number {
    return this.value;
  }
  setValue(value: number): this {
    this.value = value;
    this.lineEl.setCssStyles({ width: `${value}%` });
    return this;
  }
}

export class ColorComponent extends ValueComponent<string> {
  colorPickerEl: HTMLInputElement;
  private changeCb: ((value: string) => unknown) | null = null;
  constructor(containerEl: HTMLElement) {
    super();
    this.colorPickerEl = containerEl.createEl('input', { type: 'color' });
    this.colorPickerEl.addEventListener('input', () => void this.changeCb?.(this.getValue()));
  }
  getValue(): string {
    return this.colorPickerEl.value;
  }
  setValue(value: string): this {
    this.colorPickerEl.value = value;
    return this;
  }
  onChange(callback: (value: string) => unknown): this {
    this.changeCb = callback;
    return this;
  }
}

export class DisplayValueComponent {
  valueEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    this.valueEl = containerEl.createDiv('setting-display-value');
  }
  setValue(value: string | null): this {
    this.valueEl.setText(value ?? '');
    return this;
  }
  setStatus(status: 'warning' | null): this {
    this.valueEl.toggleClass('mod-warning', status === 'warning');
    return this;
  }
}

/**
 * Obsidian 1.11's SecretComponent: its value is a secret's *id* (name) in app.secretStorage, never
 * the secret. The workbench draws an id field (with the known ids as suggestions) and a password
 * field that stores a value under that id.
 */
export class SecretComponent extends BaseComponent {
  private readonly idEl: HTMLInputElement;
  private readonly valueEl: HTMLInputElement;
  private changeCb: ((value: string) => unknown) | null = null;

  constructor(private readonly app: App, containerEl: HTMLElement) {
    super();
    const wrap = containerEl.createDiv('secret-component');
    const listId = `secret-ids-${Math.floor(performance.now() * 1000)}`;
    this.idEl = wrap.createEl('input', { type: 'text', cls: 'secret-component-id', placeholder: 'Secret name', attr: { list: listId, spellcheck: 'false' } });
    const list = wrap.createEl('datalist', { attr: { id: listId } });
    for (const id of app.secretStorage.listSecrets()) list.createEl('option', { value: id });
    this.valueEl = wrap.createEl('input', { type: 'password', cls: 'secret-component-value', placeholder: 'Secret value', attr: { autocomplete: 'off' } });
    this.idEl.addEventListener('change', () => {
      this.refreshValueHint();
      void this.changeCb?.(this.idEl.value.trim());
    });
    this.valueEl.addEventListener('change', () => {
      const id = this.idEl.value.trim();
      if (!id || !this.valueEl.value) return;
      this.app.secretStorage.setSecret(id, this.valueEl.value);
      this.valueEl.value = '';
      this.refreshValueHint();
      void this.changeCb?.(id);
    });
  }

  private refreshValueHint(): void {
    const id = this.idEl.value.trim();
    this.valueEl.placeholder = id && this.app.secretStorage.getSecret(id) !== null ? 'Stored (type to replace)' : 'Secret value';
  }

  override setDisabled(disabled: boolean): this {
    super.setDisabled(disabled);
    this.idEl.disabled = disabled;
    this.valueEl.disabled = disabled;
    return this;
  }

  setValue(value: string): this {
    this.idEl.value = value;
    this.refreshValueHint();
    return this;
  }

  onChange(cb: (value: string) => unknown): this {
    this.changeCb = cb;
    return this;
  }
}
