import type { App } from './app';
import {
  type BaseComponent, ButtonComponent, ColorComponent, DisplayValueComponent, DropdownComponent, ExtraButtonComponent,
  MomentFormatComponent, ProgressBarComponent, SearchComponent, SliderComponent, TextAreaComponent, TextComponent, ToggleComponent,
} from './components';
import type { Plugin } from './plugin';
import { setTooltip } from './util';

/** Obsidian's Setting: one row of a settings page (name, description, controls). */
export class Setting {
  settingEl: HTMLElement;
  infoEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
  controlEl: HTMLElement;
  components: BaseComponent[] = [];
  errorEl: HTMLElement | null = null;

  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv('setting-item');
    this.infoEl = this.settingEl.createDiv('setting-item-info');
    this.nameEl = this.infoEl.createDiv('setting-item-name');
    this.descEl = this.infoEl.createDiv('setting-item-description');
    this.controlEl = this.settingEl.createDiv('setting-item-control');
  }

  setErrorMessage(message: string | null): this {
    if (message === null) {
      this.errorEl?.remove();
      this.errorEl = null;
    } else {
      this.errorEl ??= this.infoEl.createDiv('setting-item-error');
      this.errorEl.setText(message);
    }
    return this;
  }
  setName(name: string | DocumentFragment): this {
    this.nameEl.setText(name);
    return this;
  }
  setDesc(desc: string | DocumentFragment): this {
    this.descEl.setText(desc);
    return this;
  }
  setClass(cls: string): this {
    this.settingEl.addClass(cls);
    return this;
  }
  setTooltip(tooltip: string): this {
    setTooltip(this.nameEl, tooltip);
    return this;
  }
  setHeading(): this {
    this.settingEl.addClass('setting-item-heading');
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.settingEl.toggleClass('is-disabled', disabled);
    for (const c of this.components) c.setDisabled(disabled);
    return this;
  }
  private add<C extends BaseComponent>(component: C, cb: (c: C) => unknown): this {
    this.components.push(component);
    cb(component);
    return this;
  }
  addDisplayValue(cb: (component: DisplayValueComponent) => unknown): this {
    cb(new DisplayValueComponent(this.controlEl));
    return this;
  }
  addButton(cb: (component: ButtonComponent) => unknown): this {
    return this.add(new ButtonComponent(this.controlEl), cb);
  }
  addExtraButton(cb: (component: ExtraButtonComponent) => unknown): this {
    return this.add(new ExtraButtonComponent(this.controlEl), cb);
  }
  addToggle(cb: (component: ToggleComponent) => unknown): this {
    return this.add(new ToggleComponent(this.controlEl), cb);
  }
  addText(cb: (component: TextComponent) => unknown): this {
    return this.add(new TextComponent(this.controlEl), cb);
  }
  addSearch(cb: (component: SearchComponent) => unknown): this {
    return this.add(new SearchComponent(this.controlEl), cb);
  }
  addTextArea(cb: (component: TextAreaComponent) => unknown): this {
    return this.add(new TextAreaComponent(this.controlEl), cb);
  }
  addMomentFormat(cb: (component: MomentFormatComponent) => unknown): this {
    return this.add(new MomentFormatComponent(this.controlEl), cb);
  }
  addDropdown(cb: (component: DropdownComponent) => unknown): this {
    return this.add(new DropdownComponent(this.controlEl), cb);
  }
  addColorPicker(cb: (component: ColorComponent) => unknown): this {
    return this.add(new ColorComponent(this.controlEl), cb);
  }
  addProgressBar(cb: (component: ProgressBarComponent) => unknown): this {
    return this.add(new ProgressBarComponent(this.controlEl), cb);
  }
  addSlider(cb: (component: SliderComponent) => unknown): this {
    return this.add(new SliderComponent(this.controlEl), cb);
  }
  /** Any component built on the control element (SecretComponent is added this way). */
  addComponent<C extends BaseComponent>(cb: (el: HTMLElement) => C): this {
    this.components.push(cb(this.controlEl));
    return this;
  }
  then(cb: (setting: this) => unknown): this {
    cb(this);
    return this;
  }
  clear(): this {
    this.controlEl.empty();
    this.components = [];
    return this;
  }
}

/** Obsidian 1.11's SettingGroup: a heading and a list of settings. */
export class SettingGroup {
  listEl: HTMLElement;
  private readonly groupEl: HTMLElement;
  private readonly headerEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    this.groupEl = containerEl.createDiv('setting-group');
    this.headerEl = this.groupEl.createDiv('setting-item setting-item-heading');
    this.headerEl.hide();
    this.listEl = this.groupEl.createDiv('setting-items');
  }
  setHeading(text: string | DocumentFragment): this {
    this.headerEl.show();
    this.headerEl.createDiv('setting-item-name').setText(text);
    return this;
  }
  addClass(...classes: string[]): this {
    this.groupEl.addClass(...classes);
    return this;
  }
  addSetting(cb: (setting: Setting) => void): this {
    cb(new Setting(this.listEl));
    return this;
  }
  addSearch(cb: (component: SearchComponent) => unknown): this {
    cb(new SearchComponent(this.headerEl));
    return this;
  }
  addExtraButton(cb: (component: ExtraButtonComponent) => unknown): this {
    cb(new ExtraButtonComponent(this.headerEl));
    return this;
  }
}

export abstract class SettingTab {
  app: App;
  containerEl: HTMLElement;
  icon = 'settings';
  id = '';
  name = '';
  constructor(app: App) {
    this.app = app;
    this.containerEl = createDiv('vertical-tab-content');
  }
  abstract display(): void;
  hide(): void {
    this.containerEl.empty();
  }
}

export abstract class PluginSettingTab extends SettingTab {
  plugin: Plugin;
  constructor(app: App, plugin: Plugin) {
    super(app);
    this.plugin = plugin;
    this.id = plugin.manifest.id;
    this.name = plugin.manifest.name;
  }
}
