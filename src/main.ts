import { Notice, Plugin } from 'obsidian';
import { loadSettings, type StrataSettings } from './core/settings';

export default class StrataPlugin extends Plugin {
  config!: StrataSettings;

  async onload(): Promise<void> {
    const { settings, warnings } = loadSettings(await this.loadData());
    this.config = settings;
    if (warnings.length > 0) {
      new Notice(`Strata: some settings were invalid and reset to defaults:\n${warnings.join('\n')}`);
    }
  }

  onunload(): void {
    // Everything registered through this.register* is released by Obsidian.
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.config);
  }
}
