import { TFile, type App } from 'obsidian';
import { expandPrompt, type PromptContext, type PromptExpansion } from '../core/slashPrompts/expand';
import type { CustomPrompt } from '../core/slashPrompts/promptNote';
import type { LastMarkdownEditor } from './lastEditor';

/**
 * What a prompt's placeholders are filled with now: the selection of the last markdown editor, and
 * the active note (`activeNote`: the one the chat shows; else the last editor's, else Obsidian's
 * active file), named by the link Obsidian would write for it. A chat note (`chatFolder`) is never the active note.
 */
export function promptContext(app: App, editors: LastMarkdownEditor, activeNote: string | null, input: string, chatFolder: string | null = null): PromptContext {
  const view = editors.get();
  const selection = view ? view.editor.getSelection() : null;
  const active = app.workspace.getActiveFile();
  const path = activeNote ?? view?.file?.path ?? (active instanceof TFile && active.extension === 'md' ? active.path : null);
  const isChat = path !== null && chatFolder !== null && chatFolder !== '' && path.startsWith(`${chatFolder}/`);
  const file = path && !isChat ? app.vault.getFileByPath(path) : null;
  return {
    selection,
    activeNote: file ? { path: file.path, link: `[[${app.metadataCache.fileToLinktext(file, '', true)}]]` } : null,
    input,
  };
}

export function expandWithApp(
  app: App,
  editors: LastMarkdownEditor,
  prompt: CustomPrompt,
  input: string,
  activeNote: string | null,
  chatFolder: string | null,
): PromptExpansion {
  return expandPrompt(prompt, promptContext(app, editors, activeNote, input, chatFolder));
}
