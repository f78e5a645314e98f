import { setIcon } from 'obsidian';
import { callFigures, callLabel } from '../../core/agent/describe';
import type { LiveCall } from '../../core/agent/progress';
import type { AgentTurn } from '../../core/conversation/records/agent';
import type { ToolOutput } from '../../core/engine/types';

/** One line per tool call: what the view lists, for a finished turn or a running one. */
interface CallLine {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Absent while the call runs. */
  readonly figures?: { readonly chars: number; readonly ms: number; readonly isError: boolean };
  /** The tool's output as saved with the turn (finished turns). */
  readonly output?: string;
}

const TOOL_ICONS: Readonly<Record<string, string>> = {
  localSearch: 'search',
  readNote: 'file-text',
  listFolder: 'folder-tree',
  findByTag: 'tag',
  getActiveNote: 'file-check',
  getBacklinks: 'links-coming-in',
  fetchUrl: 'globe',
};

/** A finished (or interrupted) agent turn's calls, with their outputs from the turn's tool blocks (in call order). */
export function renderAgentSteps(parent: HTMLElement, agent: AgentTurn, tools: readonly ToolOutput[]): void {
  const calls = agent.steps.flatMap((s) => s.calls);
  if (calls.length === 0) return;
  // The turn's tool blocks end with the agent's outputs, one per call (Vault QA blocks, if any, come first).
  const offset = Math.max(0, tools.length - calls.length);
  const lines: CallLine[] = calls.map((c, i) => ({ name: c.name, args: c.args, figures: c, ...(tools[offset + i] ? { output: tools[offset + i].output } : {}) }));
  const steps = agent.steps.filter((s) => s.calls.length > 0).length;
  const note = agent.stop === 'step-limit' ? ' · step limit reached' : agent.stop === 'interrupted' ? ' · interrupted' : '';
  renderLines(parent, lines, `${calls.length} tool call${calls.length === 1 ? '' : 's'} in ${steps} step${steps === 1 ? '' : 's'}${note}`);
}

/** The calls of the turn running now: a spinner on the one still running. */
export function renderLiveCalls(parent: HTMLElement, calls: readonly LiveCall[]): void {
  if (calls.length === 0) return;
  renderLines(
    parent,
    calls.map((c) => ({ name: c.name, args: c.args, ...(c.result ? { figures: c.result } : {}) })),
    null,
  );
}

function renderLines(parent: HTMLElement, lines: readonly CallLine[], title: string | null): void {
  const box = parent.createDiv({ cls: 'strata-agent-steps' });
  if (title) box.createDiv({ cls: 'strata-agent-steps-title', text: title });
  for (const line of lines) {
    const item = box.createEl('details', { cls: 'strata-agent-call' });
    if (!line.figures) item.addClass('is-running');
    else if (line.figures.isError) item.addClass('is-error');
    const summary = item.createEl('summary', { cls: 'strata-agent-call-line' });
    setIcon(summary.createSpan({ cls: 'strata-agent-call-icon' }), line.figures ? (TOOL_ICONS[line.name] ?? 'wrench') : 'loader');
    summary.createSpan({ cls: 'strata-agent-call-label', text: callLabel(line.name, line.args) });
    summary.createSpan({ cls: 'strata-agent-call-figures', text: line.figures ? callFigures(line.figures) : 'running…' });
    item.createEl('pre', { cls: 'strata-agent-call-args', text: JSON.stringify(line.args, null, 2) });
    if (line.output !== undefined) item.createEl('pre', { cls: 'strata-agent-call-output', text: line.output });
  }
}
