import type { CallRecord } from '../conversation/records/agent';

/**
 * A tool call in one short line, for the step list: the tool and its main argument
 * (`readNote Projects/Plan.md › Goals`, `localSearch "quarterly plan"`), then the rest compactly.
 */
export function callLabel(name: string, args: Readonly<Record<string, unknown>>): string {
  const main = MAIN_ARG[name];
  const rest = Object.entries(args).filter(([k, v]) => k !== main && v !== undefined && v !== null && v !== '');
  const head = main !== undefined && typeof args[main] === 'string' ? ` ${quoteIf(name, String(args[main]))}` : '';
  const tail = rest.length > 0 ? ` (${rest.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ')})` : '';
  return `${name}${head}${tail}`;
}

const MAIN_ARG: Readonly<Record<string, string>> = {
  localSearch: 'query',
  readNote: 'path',
  listFolder: 'path',
  findByTag: 'tag',
  getBacklinks: 'path',
  fetchUrl: 'url',
};

function quoteIf(name: string, value: string): string {
  return name === 'localSearch' ? `"${value}"` : value;
}

/** Result size and time: "2.4k chars · 35 ms", or the error mark. */
export function callFigures(call: Pick<CallRecord, 'chars' | 'ms' | 'isError'>): string {
  const size = call.chars >= 1000 ? `${(call.chars / 1000).toFixed(1)}k chars` : `${call.chars} chars`;
  const time = call.ms >= 1000 ? `${(call.ms / 1000).toFixed(1)} s` : `${call.ms} ms`;
  return `${call.isError ? 'error · ' : ''}${size} · ${time}`;
}
