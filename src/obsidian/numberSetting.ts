import { Setting } from 'obsidian';

export type ParsedNumber<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export interface NumberSettingOptions<T> {
  readonly name: string;
  readonly desc: string;
  /** The text the field starts with. */
  readonly value: string;
  readonly placeholder?: string;
  /** Whole numbers only: the phone keyboard shows digits. */
  readonly numeric?: boolean;
  readonly parse: (text: string) => ParsedNumber<T>;
  /** A value that parsed: store and save it. */
  readonly apply: (value: T) => void;
}

/**
 * A number typed into a setting: what does not parse is refused, said under the setting's name
 * ("Not saved: …", marked invalid for screen readers), and not saved; a value that parses is applied.
 */
export function numberSetting<T>(containerEl: HTMLElement, options: NumberSettingOptions<T>): void {
  const setting = new Setting(containerEl).setName(options.name).setDesc(options.desc);
  setting.settingEl.addClass('strata-settings-number');
  const error = setting.infoEl.createDiv({ cls: 'strata-settings-error', attr: { role: 'alert' } });
  error.hide();
  setting.addText((text) => {
    if (options.numeric) text.inputEl.setAttr('inputmode', 'numeric');
    text.inputEl.setAttr('aria-label', options.name);
    if (options.placeholder !== undefined) text.setPlaceholder(options.placeholder);
    text.setValue(options.value).onChange((value) => {
      const parsed = options.parse(value);
      text.inputEl.toggleClass('is-invalid', !parsed.ok);
      text.inputEl.setAttr('aria-invalid', String(!parsed.ok));
      error.toggle(!parsed.ok);
      if (!parsed.ok) {
        error.setText(`Not saved: ${parsed.error}`);
        return;
      }
      error.setText('');
      options.apply(parsed.value);
    });
  });
}
