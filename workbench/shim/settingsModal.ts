import type { App } from './app';
import { Modal } from './modal';
import type { SettingTab } from './setting';

/** The settings window (Obsidian's internal app.setting): a tab list and the open tab's page. */
export class SettingsModal extends Modal {
  readonly tabs: SettingTab[] = [];
  activeTab: SettingTab | null = null;
  private readonly navEl: HTMLElement;
  private readonly pageEl: HTMLElement;

  constructor(app: App) {
    super(app);
    this.modalEl.addClass('mod-settings');
    this.headerEl.remove();
    const container = this.contentEl.createDiv('vertical-tabs-container');
    this.navEl = container.createDiv('vertical-tab-header');
    this.navEl.createDiv({ cls: 'vertical-tab-header-group-title', text: 'Community plugins' });
    this.pageEl = container.createDiv('vertical-tab-content-container');
  }

  addTab(tab: SettingTab): void {
    this.tabs.push(tab);
  }

  removeTab(tab: SettingTab): void {
    if (this.activeTab === tab) this.close();
    this.tabs.remove(tab);
  }

  override onOpen(): void {
    this.renderNav();
    const first = this.activeTab ?? this.tabs[0];
    if (first) this.openTab(first);
  }

  override onClose(): void {
    this.activeTab?.hide();
    this.activeTab?.containerEl.remove();
    this.activeTab = null;
  }

  private renderNav(): void {
    for (const el of Array.from(this.navEl.querySelectorAll('.vertical-tab-nav-item'))) el.remove();
    for (const tab of this.tabs) {
      const item = this.navEl.createDiv({ cls: 'vertical-tab-nav-item', text: tab.name, attr: { 'data-tab-id': tab.id } });
      item.toggleClass('is-active', tab === this.activeTab);
      item.addEventListener('click', () => this.openTab(tab));
    }
  }

  private openTab(tab: SettingTab): void {
    this.activeTab?.hide();
    this.activeTab?.containerEl.remove();
    this.activeTab = tab;
    this.pageEl.appendChild(tab.containerEl);
    tab.display();
    for (const el of Array.from(this.navEl.querySelectorAll('.vertical-tab-nav-item'))) el.toggleClass('is-active', el.getAttribute('data-tab-id') === tab.id);
  }

  openTabById(id: string): SettingTab | null {
    const tab = this.tabs.find((t) => t.id === id) ?? null;
    if (!tab) return null;
    this.activeTab = tab;
    this.open();
    this.openTab(tab);
    return tab;
  }
}
