import { parse as parseYaml } from 'yaml';

/**
 * A stand-in for the Dataview plugin's API (issue 31) in jest and the workbench, where Dataview
 * itself cannot run: `queryMarkdown(query, originFile)` with Dataview's Result shape, over a small
 * subset of its query language, deterministic over the vault's files:
 *
 *   LIST [FROM "folder"] [SORT file.name [ASC|DESC]]
 *   TABLE field, field… [FROM "folder"] [SORT file.name [ASC|DESC]]
 *
 * Fields come from a note's frontmatter and its inline `key:: value` lines, as in Dataview. Anything
 * else fails as Dataview fails on a query it cannot parse. The markdown follows Dataview's own
 * (`- [[path|name]]` items, a table whose first column is the file).
 */
export interface StandInFiles {
  /** Markdown paths, sorted. */
  list(): Promise<string[]>;
  read(path: string): Promise<string | null>;
}

export type StandInResult = { successful: true; value: string } | { successful: false; error: string };

export interface DataviewStandIn {
  queryMarkdown(query: string, originFile?: string): Promise<StandInResult>;
}

const QUERY = /^(LIST|TABLE)\b([^\n]*?)(?:\s+FROM\s+"([^"]*)")?(?:\s+SORT\s+file\.name(?:\s+(ASC|DESC))?)?\s*$/i;

export function dataviewStandIn(files: StandInFiles): DataviewStandIn {
  return {
    async queryMarkdown(query) {
      const m = QUERY.exec(query.replace(/\s+/g, ' ').trim());
      if (!m) return { successful: false, error: `Dataview: Error parsing query: expected LIST or TABLE (the stand-in reads LIST/TABLE … FROM "folder" SORT file.name only)` };
      const type = m[1].toUpperCase();
      const fields = m[2].split(',').map((f) => f.trim()).filter(Boolean);
      if (type === 'LIST' && fields.length > 0) return { successful: false, error: 'Dataview: Error parsing query: LIST takes no fields in the stand-in' };
      const folder = (m[3] ?? '').replace(/\/+$/, '');
      let paths = (await files.list()).filter((p) => folder === '' || p.startsWith(`${folder}/`));
      paths = [...paths].sort((a, b) => byName(a, b));
      if ((m[4] ?? 'ASC').toUpperCase() === 'DESC') paths.reverse();
      if (type === 'LIST') return { successful: true, value: paths.map((p) => `- ${link(p)}`).join('\n') + (paths.length ? '\n' : '') };
      const rows: string[] = [`| File | ${fields.join(' | ')} |`, `| ${['---', ...fields.map(() => '---')].join(' | ')} |`];
      for (const p of paths) {
        const values = fieldsOf((await files.read(p)) ?? '');
        rows.push(`| ${link(p, true)} | ${fields.map((f) => cell(values.get(f.toLowerCase()))).join(' | ')} |`);
      }
      return { successful: true, value: `${rows.join('\n')}\n` };
    },
  };
}

function name(path: string): string {
  return (path.split('/').pop() ?? path).replace(/\.md$/i, '');
}

function byName(a: string, b: string): number {
  const x = name(a).toLowerCase();
  const y = name(b).toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

function link(path: string, inTable = false): string {
  return `[[${path}${inTable ? '\\|' : '|'}${name(path)}]]`;
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return '\\-';
  const text = Array.isArray(value) ? value.map(String).join(', ') : typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? `${value}` : JSON.stringify(value);
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** Frontmatter fields, then inline `key:: value` fields, by lower-cased name. */
function fieldsOf(text: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (fm) {
    try {
      const data: unknown = parseYaml(fm[1]);
      if (data && typeof data === 'object') for (const [k, v] of Object.entries(data as Record<string, unknown>)) out.set(k.toLowerCase(), v);
    } catch {
      // Bad frontmatter: Dataview reads no fields from it either.
    }
  }
  for (const line of text.split(/\r?\n/)) {
    const inline = /^([A-Za-z][\w -]*?)::\s*(.*)$/.exec(line.trim());
    if (inline && !out.has(inline[1].toLowerCase())) out.set(inline[1].toLowerCase(), inline[2].trim());
  }
  return out;
}
