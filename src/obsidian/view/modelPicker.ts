import type { ProviderSettings } from '../../core/settings/settings';

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
  const label = pickerLabel(current.model, name);
  select.setAttr('title', label);
  // Room for the whole label (and the arrow): a narrow sidebar puts the mode picker on the next row rather than cut the provider off.
  const width = labelWidth(select, label);
  if (width !== null) select.setCssProps({ '--strata-model-label-width': `${Math.ceil(width)}px` });
}

export function pickerLabel(model: string, provider: string): string {
  return `${model} · ${provider}`;
}

let canvas: HTMLCanvasElement | null = null;

/** The select's width that shows `label` whole: the text in its font, its padding (the arrow) and border. */
function labelWidth(select: HTMLSelectElement, label: string): number | null {
  if (!select.isConnected) return null;
  canvas ??= createEl('canvas');
  const context = canvas.getContext('2d');
  if (!context) return null;
  const style = getComputedStyle(select);
  context.font = style.font;
  const extra = ['paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth'].reduce((sum, key) => sum + (parseFloat(style[key as 'paddingLeft']) || 0), 0);
  return context.measureText(label).width + extra + 2;
}
