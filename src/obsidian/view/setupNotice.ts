import { setIcon, type App } from 'obsidian';
import type { StrataSettings } from '../../core/settings/settings';
import { keyStatus } from '../../providers/connectionTest';

/**
 * Why a message cannot be sent with the chat's provider as set up (null: it can): no provider, the
 * chat's provider gone, no API key, no base URL. Said before the user types, not after they send.
 */
export function setupProblem(settings: StrataSettings, providerId: string, secret: (id: string) => string | null): string | null {
  if (settings.providers.length === 0) return 'No provider is set up: add one in settings.';
  const provider = settings.providers.find((p) => p.id === providerId);
  if (!provider) return `This chat's provider "${providerId}" is not set up: pick a model above, or add the provider in settings.`;
  if (keyStatus(provider, secret) === 'missing') return `No API key for ${provider.name}: add one in settings.`;
  if (provider.kind === 'openai-compatible' && !provider.baseUrl) return `No base URL for ${provider.name}: add one in settings.`;
  return null;
}

/** The empty chat's notice: the problem in words and a button to Strata's settings. */
export function renderSetupNotice(parent: HTMLElement, problem: string, openSettings: () => void): void {
  const box = parent.createDiv({ cls: 'strata-setup-notice', attr: { role: 'alert' } });
  setIcon(box.createSpan({ cls: 'strata-setup-notice-icon' }), 'key-round');
  box.createSpan({ cls: 'strata-setup-notice-text', text: problem });
  const button = box.createEl('button', { cls: 'mod-cta strata-open-settings', text: 'Open settings' });
  button.addEventListener('click', openSettings);
}

/**
 * Opens Strata's tab in the settings window. `app.setting` is not in Obsidian's public types (it is
 * there at runtime, and in the workbench's shim): used only when it has the methods, else the user
 * is told where to go.
 */
export function openPluginSettings(app: App, pluginId: string): boolean {
  const setting = (app as unknown as { setting?: { open?: () => void; openTabById?: (id: string) => unknown } }).setting;
  if (typeof setting?.open !== 'function' || typeof setting.openTabById !== 'function') return false;
  setting.open();
  setting.openTabById(pluginId);
  return true;
}
