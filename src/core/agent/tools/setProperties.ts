import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { z } from 'zod';
import { lazySchema } from '../../lazySchema';
import { proposalOf } from '../../edits/lineDiff';
import { submitProposal } from '../submitEdit';
import { defineTool, errorText } from '../tool';
import { existingNote, proposalId } from './writeTarget';

const Value = lazySchema(() => z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]));

export interface PropertyChanges {
  readonly set?: Readonly<Record<string, z.infer<ReturnType<typeof Value>>>>;
  readonly remove?: readonly string[];
  readonly addTags?: readonly string[];
  readonly removeTags?: readonly string[];
}

/** A tag as the frontmatter keeps it: without '#'. */
function bareTag(tag: string): string {
  return tag.trim().replace(/^#/, '');
}

/**
 * The note with its frontmatter changed: properties set or removed, tags added or removed. Only the
 * YAML between the fences changes (comments and the order of other keys kept, by the yaml library's
 * document model); a note without frontmatter gets one at its top.
 */
export function changeProperties(text: string, changes: PropertyChanges): { text: string } | { error: string } {
  const open = /^(\ufeff?)---[ \t]*(\r\n?|\n)/.exec(text);
  let start = 0;
  let yaml = '';
  let eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (open) {
    eol = open[2];
    start = open[0].length;
    const close = /^(?:---|\.\.\.)[ \t]*$/m;
    const rest = text.slice(start);
    const m = close.exec(rest);
    if (!m) return { error: 'the note\'s frontmatter has no closing "---" line; fix it first.' };
    yaml = rest.slice(0, m.index);
  }
  const doc = parseDocument(yaml.replace(/\r\n?/g, '\n'));
  if (doc.errors.length > 0) return { error: `the note's frontmatter is not valid YAML (${doc.errors[0].message.split('\n')[0]}).` };
  if (doc.contents !== null && !isMap(doc.contents)) return { error: 'the note\'s frontmatter is not a set of properties.' };
  for (const [key, value] of Object.entries(changes.set ?? {})) doc.set(key, value);
  for (const key of changes.remove ?? []) doc.delete(key);
  const adds = (changes.addTags ?? []).map(bareTag).filter((t) => t !== '');
  const drops = new Set((changes.removeTags ?? []).map(bareTag));
  if (adds.length > 0 || drops.size > 0) {
    const current = doc.get('tags');
    if (isSeq(current)) {
      // The list node is changed in place: its style (a flow [a, b] or a block list) stays the user's.
      current.items = current.items.filter((item) => !drops.has(bareTag(String(isScalar(item) ? item.value : item))));
      const have = new Set(current.items.map((item) => bareTag(String(isScalar(item) ? item.value : item))));
      for (const tag of adds) if (!have.has(tag)) current.items.push(doc.createNode(tag));
      if (current.items.length === 0) doc.delete('tags');
    } else {
      const tags = typeof current === 'string' ? current.split(/[,\s]+/).filter((t) => t !== '') : [];
      const next = tags.map(bareTag).filter((t) => !drops.has(t));
      for (const tag of adds) if (!next.includes(tag)) next.push(tag);
      if (next.length === 0) doc.delete('tags');
      else doc.set('tags', next);
    }
  }
  const isEmpty = !isMap(doc.contents) || doc.contents.items.length === 0;
  const written = isEmpty ? '' : doc.toString({ lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false }).replace(/\n/g, eol);
  if (open) return { text: text.slice(0, start) + written + text.slice(start + yaml.length) };
  if (isEmpty) return { text };
  return { text: `---${eol}${written}---${eol}${text}` };
}

export const setProperties = defineTool({
  name: 'setProperties',
  description:
    "Change a note's properties (its YAML frontmatter): set properties to values, remove properties, add or remove tags. Only the frontmatter changes; the user reviews the change before it is written.",
  schema: () => z.object({
    path: z.string().trim().min(1).describe('The note: its vault-relative path, or its name when unique.'),
    set: z.record(z.string().min(1), Value()).optional().describe('Properties to set: name → value (text, number, true/false, or a list of texts).'),
    remove: z.array(z.string().min(1)).optional().describe('Names of properties to remove.'),
    addTags: z.array(z.string().min(1)).optional().describe('Tags to add (without "#").'),
    removeTags: z.array(z.string().min(1)).optional().describe('Tags to remove.'),
  }),
  async run(args, ctx) {
    if (!args.set && !args.remove && !args.addTags && !args.removeTags) return errorText('give at least one of set, remove, addTags, removeTags.');
    const target = await existingNote(ctx, args.path);
    if ('error' in target) return target.error;
    const changed = changeProperties(target.text, args);
    if ('error' in changed) return errorText(`setProperties ${target.path}: ${changed.error}`);
    if (changed.text === target.text) return `Nothing to change: ${target.path} already has these properties.`;
    const proposal = proposalOf({ id: proposalId(ctx), kind: 'frontmatter', path: target.path, baseText: target.text, proposedText: changed.text, toolCallId: proposalId(ctx) });
    return submitProposal(target.session, proposal, ctx.signal);
  },
});
