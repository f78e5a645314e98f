import type { ProviderSettings } from '../../core/settings';

/**
 * The model picker's options: one group per provider (its name), the models under it. The chosen
 * option reads "gpt-4o · OpenAI", so the closed select names the provider too (at 300 px as well);
 * the others read as the model alone under their provider's group. A chat's model no provider
 * offers any more still shows, as "model · provider-id".
 */
export function fillModelPicker(select: HTMLSelectElement, providers: readonly ProviderSettings[], current: { provider: string; model: string }): void {
  select.empty();
  let found = false;
  for (const provider of providers) {
    const group = select.createEl('optgroup', { attr: { label: provider.name } });
    for (const model of provider.models) {
      const chosen = provider.id === current.provider && model === current.model;
      found ||= chosen;
      group.createEl('option', { value: `${provider.id}::${model}`, text: chosen ? pickerLabel(model, provider.name) : model });
    }
  }
  if (!found) select.createEl('option', { value: `${current.provider}::${current.model}`, text: pickerLabel(current.model, current.provider) });
  select.value = `${current.provider}::${current.model}`;
  const name = providers.find((p) => p.id === current.provider)?.name ?? current.provider;
  select.setAttr('title', pickerLabel(current.model, name));
}

export function pickerLabel(model: string, provider: string): string {
  return `${model} · ${provider}`;
}
