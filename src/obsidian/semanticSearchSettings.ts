import { Setting } from 'obsidian';
import type { StrataSettings } from '../core/settings/settings';
import type { SemanticState } from './searchIndex';
import { describeSemanticState } from './semanticStatus';

/**
 * The Semantic search section of the settings tab (issue 13): embeddings fused with the lexical
 * search. Off by default: it sends the vault to the embedding model. Returns what refreshes its
 * status line (the tab refreshes it while it is open).
 */
export function renderSemanticSearchSettings(containerEl: HTMLElement, settings: StrataSettings, save: () => void, stateNow: () => SemanticState): () => void {
  new Setting(containerEl).setName('Semantic search').setHeading();
  containerEl.createDiv({
    cls: 'strata-settings-note',
    text: 'Finds notes by meaning as well as by words. Every section of every note is sent once to the embedding model, and again when it changes; each search sends the question. With OpenAI\'s text-embedding-3-small that is $0.02 per million tokens (a vault of 1,000 notes is often about a million tokens: about 2 cents to index); a local model through Ollama costs nothing and nothing leaves the computer. The tokens and cost are counted.',
  });
  let model: Setting | null = null;
  new Setting(containerEl)
    .setName('Use semantic search')
    .setDesc('Off by default. When on, search ranks by words and by meaning together.')
    .addToggle((toggle) =>
      toggle.setValue(settings.semanticSearch).onChange((value) => {
        settings.semanticSearch = value;
        model?.setDisabled(!value);
        save();
      }),
    );
  model = new Setting(containerEl)
    .setName('Embedding model')
    .setDesc('The provider ID, a slash, then the model name. For a model on this computer, add an OpenAI-compatible provider for the local server and name one of its embedding models, such as nomic-embed-text. Changing it embeds the vault again.')
    .addText((text) =>
      text
        .setPlaceholder('Provider ID/model')
        .setValue(settings.embeddingModel)
        .onChange((value) => {
          settings.embeddingModel = value.trim();
          save();
        }),
    );
  model.setDisabled(!settings.semanticSearch);
  const status = new Setting(containerEl).setName('Status');
  status.descEl.addClass('strata-semantic-status');
  const show = (): void => {
    status.setDesc(describeSemanticState(stateNow()));
  };
  show();
  return show;
}
