import { z } from 'zod';
import { lazySchema } from '../lazySchema';
import { leftOut, NonBlank, orElse } from '../lenient';
import { normalizeFolder } from '../vaultFolders';
import { WritePolicySchema } from './writePolicySchema';

/* A project as the settings hold it; src/core/projects works with it and re-exports these names. */

export const PROJECT_ID = /^[a-z0-9][a-z0-9-]*$/;

/** One project as data.json holds it. A damaged one is left out of the settings with a warning (settings.ts). */
export const ProjectSchema = lazySchema(() => z
  .object({
    /** Stable id (lowercase letters, digits, dashes): chats remember it, so renaming keeps them in the project. */
    id: z.string().regex(PROJECT_ID, { error: 'expected lowercase letters, digits and dashes' }),
    name: leftOut(NonBlank, 'the id is used').optional(),
    /** Vault-relative folder ('' while unset: the whole vault, chats in the chat folder). */
    folder: orElse(z.string(), ''),
    prompt: orElse(z.string(), ''),
    /** Notes attached to a new chat of the project. */
    notes: orElse(z.array(leftOut(NonBlank)), [], 'no notes are attached'),
    /** Default model of its new chats: a provider id and a model (both, or the chat defaults are used). */
    provider: leftOut(NonBlank).optional(),
    model: leftOut(NonBlank).optional(),
    /** The project's own write policy (issue 28); absent: the settings'. */
    writePolicy: leftOut(WritePolicySchema(), "the settings' write policy is used").optional(),
  })
  .transform(({ name, folder, notes, ...project }) => ({
    ...project,
    name: name?.trim() ?? project.id,
    folder: normalizeFolder(folder),
    notes: [...new Set(notes.map((n) => n.trim()))],
  })));

export type ProjectSettings = z.infer<ReturnType<typeof ProjectSchema>>;
