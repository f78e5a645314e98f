import type { ContextChip } from '../context/items';
import type { ToolOutput } from '../engine/types';

/** A scripted conversation (format: shared/scenarios/README.md). */
export interface Scenario {
  name: string;
  vault?: string;
  model: string;
  turns: ScenarioTurn[];
}

export interface ScenarioTurn {
  user: string;
  context: ContextChip[];
  edits: ScenarioEdit[];
  tools: ToolOutput[];
  reply?: string;
  /** Project extension: ids removed from the Context Library before this turn. */
  remove: string[];
}

export type ScenarioEdit = { note: string; append: string } | { note: string; replace: string };

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** Validate parsed JSON into a Scenario, with errors that name the turn and field. */
export function parseScenario(data: unknown, origin = 'scenario'): Scenario {
  const fail = (where: string, what: string): never => {
    throw new ScenarioError(`${origin}: ${where}: ${what}`);
  };
  if (!isObject(data)) return fail('top level', 'expected a JSON object');
  const name = typeof data.name === 'string' && data.name ? data.name : fail('name', 'required string');
  if (data.vault !== undefined && typeof data.vault !== 'string') fail('vault', 'must be a string');
  if (data.model !== undefined && typeof data.model !== 'string') fail('model', 'must be a string');
  if (!Array.isArray(data.turns) || data.turns.length === 0) fail('turns', 'required non-empty array');
  const turns = (data.turns as unknown[]).map((raw, i): ScenarioTurn => {
    const at = `turns[${i}]`;
    if (!isObject(raw)) return fail(at, 'expected an object');
    if (typeof raw.user !== 'string') fail(`${at}.user`, 'required string');
    if (raw.reply !== undefined && typeof raw.reply !== 'string') fail(`${at}.reply`, 'must be a string');
    return {
      user: raw.user as string,
      context: list(raw.context, `${at}.context`, fail).map((c, j) => parseChip(c, `${at}.context[${j}]`, fail)),
      edits: list(raw.edits, `${at}.edits`, fail).map((e, j) => parseEdit(e, `${at}.edits[${j}]`, fail)),
      tools: list(raw.tools, `${at}.tools`, fail).map((t, j) => parseTool(t, `${at}.tools[${j}]`, fail)),
      ...(typeof raw.reply === 'string' ? { reply: raw.reply } : {}),
      remove: list(raw.remove, `${at}.remove`, fail).map((r, j) => (typeof r === 'string' ? r : fail(`${at}.remove[${j}]`, 'must be a string'))),
    };
  });
  return { name, ...(typeof data.vault === 'string' ? { vault: data.vault } : {}), model: (data.model as string) ?? 'gpt-4o', turns };
}

type Fail = (where: string, what: string) => never;

function parseChip(raw: unknown, at: string, fail: Fail): ContextChip {
  if (!isObject(raw)) return fail(at, 'expected an object');
  if (typeof raw.note === 'string') return { kind: 'note', path: raw.note };
  if (typeof raw.folder === 'string') return { kind: 'folder', path: raw.folder };
  if (typeof raw.tag === 'string') return { kind: 'tag', tag: raw.tag };
  if (typeof raw.url === 'string') {
    return { kind: 'url', url: raw.url, ...(typeof raw.content === 'string' ? { content: raw.content } : {}) };
  }
  if (isObject(raw.selection)) {
    const s = raw.selection;
    if (typeof s.note !== 'string' || typeof s.fromLine !== 'number' || typeof s.toLine !== 'number') {
      return fail(`${at}.selection`, 'needs note (string), fromLine and toLine (numbers)');
    }
    return { kind: 'selection', path: s.note, fromLine: s.fromLine, toLine: s.toLine };
  }
  return fail(at, 'expected one of note, folder, tag, url, selection');
}

function parseEdit(raw: unknown, at: string, fail: Fail): ScenarioEdit {
  if (!isObject(raw) || typeof raw.note !== 'string') return fail(at, 'needs note (string)');
  if (typeof raw.append === 'string') return { note: raw.note, append: raw.append };
  if (typeof raw.replace === 'string') return { note: raw.note, replace: raw.replace };
  return fail(at, 'needs append or replace (string)');
}

function parseTool(raw: unknown, at: string, fail: Fail): ToolOutput {
  if (!isObject(raw) || typeof raw.name !== 'string' || typeof raw.output !== 'string') {
    return fail(at, 'needs name and output (strings)');
  }
  return { name: raw.name, input: typeof raw.input === 'string' ? raw.input : '', output: raw.output };
}

function list(value: unknown, at: string, fail: Fail): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : fail(at, 'must be an array');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The reply used when a scenario gives none: depends only on the turn number. */
export function placeholderReply(turn: number): string {
  return `(placeholder reply for turn ${turn})`;
}
