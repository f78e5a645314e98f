import type { EditProposal } from './proposal';

/**
 * A proposal as plain text, like a unified diff without context lines: what the inspector prints
 * and a log can hold. `@@ -a,n +b,m @@` per hunk (1-based lines of the base and of the proposed text).
 */
export function diffText(proposal: EditProposal): string {
  const to = proposal.newPath ?? proposal.path;
  const out = [`--- ${proposal.kind === 'create' ? '/dev/null' : proposal.path}`, `+++ ${to}`];
  let shift = 0;
  for (const h of proposal.hunks) {
    const newStart = h.baseStart + shift;
    shift += h.newLines.length - h.baseLines.length;
    out.push(`@@ -${h.baseStart + 1},${h.baseLines.length} +${newStart + 1},${h.newLines.length} @@ ${h.id}`);
    for (const line of h.baseLines) out.push(`-${line}`);
    for (const line of h.newLines) out.push(`+${line}`);
  }
  return out.join('\n');
}
