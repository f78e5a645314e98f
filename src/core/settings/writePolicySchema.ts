import { z } from 'zod';
import { lazySchema } from '../lazySchema';
import { DEFAULT_WRITE_POLICY, WRITE_MODES, type WritePolicy } from '../edits/writePolicy';
import { orElse } from '../lenient';
import { normalizeFolder } from '../vaultFolders';

/** A write policy as data.json, a project or a chat note holds it; a damaged one reads as "ask each time". */
export const WritePolicySchema = lazySchema(() => z
  .object({
    mode: orElse(z.enum(WRITE_MODES), 'ask', 'read as "ask each time"'),
    folders: orElse(z.array(z.string().max(1000)).max(100), [], 'no folders'),
  })
  .transform((p): WritePolicy => ({ mode: p.mode, folders: [...new Set(p.folders.map(normalizeFolder))] })));

export const WritePolicySetting = lazySchema(() => orElse(WritePolicySchema(), DEFAULT_WRITE_POLICY, 'the agent asks before each change'));
