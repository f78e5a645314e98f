import type { App } from './app';
import type { Editor } from './editor';
import type { MarkdownView } from './workspace';

export interface Command {
  id: string;
  name: string;
  icon?: string;
  mobileOnly?: boolean;
  repeatable?: boolean;
  hotkeys?: { modifiers: string[]; key: string }[];
  callback?: () => unknown;
  checkCallback?: (checking: boolean) => boolean | void;
  editorCallback?: (editor: Editor, ctx: MarkdownView) => unknown;
  editorCheckCallback?: (checking: boolean, editor: Editor, ctx: MarkdownView) => boolean | void;
}

/** The command registry behind the command palette (Obsidian's internal app.commands). */
export class Commands {
  readonly commands: Record<string, Command> = {};

  constructor(private readonly app: App) {}

  addCommand(command: Command): void {
    this.commands[command.id] = command;
  }

  removeCommand(id: string): void {
    delete this.commands[id];
  }

  findCommand(id: string): Command | undefined {
    return this.commands[id];
  }

  listCommands(): Command[] {
    return Object.values(this.commands);
  }

  /** Would the palette offer it right now (check callbacks, an active editor for editor commands)? */
  isAvailable(command: Command): boolean {
    const active = this.app.workspace.activeEditor;
    const view = this.app.workspace.activeLeaf?.view as MarkdownView | undefined;
    if (command.editorCheckCallback) return !!active && !!view && command.editorCheckCallback(true, active.editor, view) === true;
    if (command.editorCallback) return !!active;
    if (command.checkCallback) return command.checkCallback(true) === true;
    return !!command.callback;
  }

  /** Runs a command like the palette does; false when it is not available in the current state. */
  executeCommandById(id: string): boolean {
    const command = this.commands[id];
    if (!command || !this.isAvailable(command)) return false;
    const active = this.app.workspace.activeEditor;
    const view = this.app.workspace.activeLeaf?.view as MarkdownView;
    if (command.editorCheckCallback && active) command.editorCheckCallback(false, active.editor, view);
    else if (command.editorCallback && active) void command.editorCallback(active.editor, view);
    else if (command.checkCallback) command.checkCallback(false);
    else void command.callback?.();
    return true;
  }
}
