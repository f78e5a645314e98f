import { z } from 'zod';
import { localSearchBlock } from '../../vaultQa/localSearchBlock';
import { VAULT_QA_PER_NOTE } from '../../vaultQa/vaultQa';
import { defineTool, errorText, throwIfAborted } from '../tool';
import { VaultView } from '../vaultView';

export const LOCAL_SEARCH_DEFAULT_K = 8;

export const INDEX_BUILDING =
  'the vault search index is still being built, so localSearch cannot run yet. Use listFolder, findByTag or readNote meanwhile, or try localSearch again later.';

export const localSearch = defineTool({
  name: 'localSearch',
  description:
    "Search the user's vault (their notes) by meaning and keywords. Returns the best matching passages (sections of notes), each under a numbered source [n] with the note's path, heading and line range, followed by the citation rules. " +
    'Use it first for any question about what the notes say; search again with other words if the results miss. Cite the passages you use with their [n]; numbers stay the same for the whole turn. ' +
    'At most 3 passages come from one note; to read more of a note, call readNote with its path and a heading or the line range shown.',
  schema: () => z.object({
    query: z.string().trim().min(1).describe('What to look for: a question or keywords, in the language of the notes.'),
    k: z.number().int().min(1).max(20).optional().describe(`How many passages to return (1-20, default ${LOCAL_SEARCH_DEFAULT_K}).`),
  }),
  async run({ query, k = LOCAL_SEARCH_DEFAULT_K }, ctx) {
    const search = ctx.host.search();
    if (!search) return errorText(INDEX_BUILDING);
    const view = new VaultView(ctx.host);
    // Ask for more than k: passages out of sight (outside the project, in the chat folder) are dropped after.
    const filtered = view.scope !== '' || view.hidden.length > 0;
    const hits = await search.search(query, { k: filtered ? Math.min(k * 4, 80) : k, perNote: VAULT_QA_PER_NOTE, signal: ctx.signal });
    throwIfAborted(ctx.signal);
    const shown = hits.filter((h) => h.score > 0 && view.isVisible(h.path)).slice(0, k);
    return localSearchBlock(query, shown, ctx.sources).tool.output;
  },
});
