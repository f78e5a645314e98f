/**
 * The Projects section of the settings tab (issue 14): add, edit and remove projects. Each one is a
 * one-line summary (name, folder, notes) that expands to its name, folder (with a folder
 * suggest), project prompt, default notes and default model.
 */
import { Setting, type App } from 'obsidian';
import { newProjectId, notePath, projectFacts } from '../core/projects/projects';
import { type ProjectSettings } from '../core/settings/projectSettings';
import { normalizeFolder, projectChatsFolder } from '../core/projects/folders';
import type { StrataSettings } from '../core/settings/settings';
import { FolderSuggest } from './folderSuggest';
import { renderWritePolicy } from './writePolicySetting';

export interface ProjectSectionHost {
  readonly app: App;
  readonly settings: StrataSettings;
  save(): void;
  /** Re-render the whole tab. */
  redraw(): void;
}

/** Projects shown expanded (by id), kept across redraws of the tab. */
const expanded = new Set<string>();

const DEFAULT_MODEL = '';

export function renderProjectSettings(containerEl: HTMLElement, host: ProjectSectionHost): void {
  const { settings } = host;
  new Setting(containerEl).setName('Projects').setHeading();
  containerEl.createDiv({
    cls: 'strata-settings-note',
    text: 'A project keeps a chat inside one folder (Vault QA and the agent\'s tools search and read only there), adds its instructions to every request, and starts new chats with its notes and model. Its chats are saved in the folder\'s "Chats" subfolder. Pick the project in the chat\'s header.',
  });
  settings.projects.forEach((project, index) => renderProject(containerEl, host, project, index));
  new Setting(containerEl).addButton((button) =>
    button.setButtonText('Add project').onClick(() => {
      const id = newProjectId(settings.projects, 'New project');
      settings.projects.push({ id, name: 'New project', folder: '', prompt: '', notes: [] });
      expanded.add(id);
      host.save();
      host.redraw();
    }),
  );
}

function renderProject(containerEl: HTMLElement, host: ProjectSectionHost, project: ProjectSettings, index: number): void {
  const { app, settings } = host;
  const save = () => host.save();
  const box = containerEl.createEl('details', { cls: 'strata-settings-project', attr: { 'data-project': project.id } });
  box.open = expanded.has(project.id);
  box.addEventListener('toggle', () => (box.open ? expanded.add(project.id) : expanded.delete(project.id)));
  const summaryEl = box.createEl('summary', { cls: 'strata-project-summary' });
  const refreshSummary = () => {
    summaryEl.empty();
    summaryEl.createSpan({ cls: 'strata-project-name', text: project.name });
    summaryEl.createSpan({ cls: 'strata-project-facts', text: projectFacts(project) });
  };
  refreshSummary();
  const body = box.createDiv({ cls: 'strata-project-body' });

  new Setting(body)
    .setName('Name')
    .setDesc(`Shown in the chat's project picker. ID: ${project.id} (chats remember it).`)
    .addText((text) =>
      text.setValue(project.name).onChange((value) => {
        project.name = value.trim() || project.id;
        refreshSummary();
        save();
      }),
    );

  const chatsWhere = () => {
    const chats = projectChatsFolder(project.folder);
    return chats ? `Its chats are saved in ${chats}.` : 'Empty: the whole vault, and its chats go to the chat folder.';
  };
  const folderSetting = new Setting(body).setName('Folder').setDesc(`Chats of the project search and read only inside this folder. ${chatsWhere()}`);
  const setFolder = (value: string) => {
    project.folder = normalizeFolder(value);
    folderSetting.setDesc(`Chats of the project search and read only inside this folder. ${chatsWhere()}`);
    refreshSummary();
    save();
  };
  folderSetting.addText((text) => {
    text.setPlaceholder('Choose a folder').setValue(project.folder).onChange(setFolder);
    text.inputEl.addClass('strata-project-folder');
    new FolderSuggest(app, text.inputEl, setFolder);
  });

  new Setting(body)
    .setName('Project prompt')
    .setDesc('Instructions sent with every request of the project\'s chats, after the system prompt and memory (cached with them). Changing it restarts the cached prefix of its open chats once.')
    .addTextArea((text) => {
      text.inputEl.rows = 4;
      text.inputEl.addClass('strata-settings-textarea', 'strata-project-prompt');
      text.setValue(project.prompt).onChange((value) => {
        project.prompt = value;
        save();
      });
    });

  new Setting(body)
    .setName('Default notes')
    .setDesc('Attached to each new chat of the project, one note path per line (a [[link]] works too).')
    .addTextArea((text) => {
      text.inputEl.rows = 3;
      text.inputEl.addClass('strata-settings-textarea', 'strata-project-notes');
      text.setPlaceholder('Projects/Alpha/Brief.md').setValue(project.notes.join('\n')).onChange((value) => {
        project.notes = [...new Set(value.split('\n').map(notePath).filter((p) => p !== ''))];
        refreshSummary();
        save();
      });
    });

  renderWritePolicy(body, {
    name: 'What the agent may write',
    desc: "The project's own write policy for the agent, or the one in the Agent settings.",
    policy: project.writePolicy,
    inherit: true,
    set: (policy) => {
      if (policy) project.writePolicy = policy;
      else delete project.writePolicy;
      save();
    },
  });

  new Setting(body)
    .setName('Default model')
    .setDesc('The model new chats of the project start with.')
    .addDropdown((dropdown) => {
      dropdown.selectEl.addClass('strata-project-model');
      dropdown.addOption(DEFAULT_MODEL, 'The default model');
      for (const p of settings.providers) for (const m of p.models) dropdown.addOption(`${p.id}::${m}`, `${m} (${p.name})`);
      const current = project.provider && project.model ? `${project.provider}::${project.model}` : DEFAULT_MODEL;
      if (current !== DEFAULT_MODEL && !settings.providers.some((p) => p.id === project.provider && p.models.includes(project.model ?? ''))) {
        dropdown.addOption(current, `${project.model ?? ''} (${project.provider ?? ''}, not configured)`);
      }
      dropdown.setValue(current).onChange((value) => {
        if (value === DEFAULT_MODEL) {
          delete project.provider;
          delete project.model;
        } else {
          const [providerId, ...rest] = value.split('::');
          project.provider = providerId;
          project.model = rest.join('::');
        }
        refreshSummary();
        save();
      });
    });

  const removal = projectChatsFolder(project.folder)
    ? `Its chats stay in ${projectChatsFolder(project.folder) ?? ''} and work without the project, but the chat history lists them only while a project has that folder (or once you move them to the chat folder).`
    : 'Its chats stay where they are and keep working, without the project.';
  new Setting(body).setDesc(removal).addButton((button) => {
    button.buttonEl.addClass('mod-warning');
    button.setButtonText('Remove project').onClick(() => {
      settings.projects.splice(index, 1);
      expanded.delete(project.id);
      save();
      host.redraw();
    });
  });
}
