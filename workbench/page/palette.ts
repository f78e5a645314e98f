import type { App } from '../shim/app';
import type { Command } from '../shim/commands';
import { FuzzySuggestModal } from '../shim/modal';

/** The command palette (Ctrl/Cmd+P): lists the commands available right now. */
export class CommandPalette extends FuzzySuggestModal<Command> {
  constructor(app: App) {
    super(app);
    this.setPlaceholder('Select a command...');
  }
  getItems(): Command[] {
    return this.app.commands.listCommands().filter((c) => this.app.commands.isAvailable(c)).sort((a, b) => a.name.localeCompare(b.name));
  }
  getItemText(item: Command): string {
    return item.name;
  }
  onChooseItem(item: Command): void {
    this.app.commands.executeCommandById(item.id);
  }
}
