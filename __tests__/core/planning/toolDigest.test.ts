import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderNote } from '../../../src/core/agent/tools/readNote';
import { errorText } from '../../../src/core/agent/tool';
import { supersededText, toolDigest } from '../../../src/core/planning/toolDigest';
import { localSearchBlock } from '../../../src/core/vaultQa/localSearchBlock';
import { VAULT } from '../../helpers/paths';

const TASK = 'Tasks/Writing a task.md';
const text = readFileSync(path.join(VAULT, TASK), 'utf8');

describe('offline digests of earlier tool outputs', () => {
  test('readNote: the header and heading outline, with how to read it again; much shorter', () => {
    const output = renderNote(TASK, text);
    const digest = toolDigest({ name: 'readNote', input: JSON.stringify({ path: TASK }), output }, 3)!;
    const lines = digest.split('\n');
    expect(lines[0]).toBe(`[readNote output of turn 3, kept as its heading outline when the conversation was condensed. Call readNote with path "${TASK}" (and a heading) to read it again.]`);
    expect(lines[1]).toBe(output.split('\n')[0]);
    const headings = text.split('\n').filter((l) => /^#{1,6} /.test(l));
    expect(lines.slice(2)).toEqual(headings.slice(0, 40));
    expect(digest.length * 3).toBeLessThan(output.length);
    // Deterministic: the same output gives the same bytes.
    expect(toolDigest({ name: 'readNote', input: '', output }, 3)).toBe(digest);
  });

  test('localSearch: the query and the numbered sources, no passages', () => {
    const hits = ['Tasks/Writing a task.md', 'Projects/Greenhouse/Climate log.md'].map((p, i) => ({
      path: p,
      headings: [],
      heading: '',
      startLine: 1,
      endLine: 20,
      text: readFileSync(path.join(VAULT, p), 'utf8').split('\n').slice(0, 20).join('\n'),
      snippet: '',
      score: 1 - i,
    }));
    const { tool } = localSearchBlock('greenhouse tasks', hits);
    const digest = toolDigest(tool, 2)!;
    expect(digest.split('\n')).toEqual([
      '[localSearch output of turn 2, kept as its list of sources when the conversation was condensed. Call readNote on a source (or localSearch again) for its text.]',
      'Vault search for: greenhouse tasks',
      'Sources:',
      ...tool.output.split('\n').filter((l) => /^\[\d\] /.test(l)),
    ]);
    expect(digest).not.toContain('--- [1]');
    expect(digest.length * 3).toBeLessThan(tool.output.length);
  });

  test('fetchUrl: the title, the address and the first paragraph', () => {
    const output = `# Ventilation guide\nSource: https://example.org/vents\n\n## Intro\n\nOpen the roof vents at 24 °C.\nClose them at dusk.\n\n${'More detail. '.repeat(200)}`;
    const digest = toolDigest({ name: 'fetchUrl', input: '{"url":"https://example.org/vents"}', output }, 5)!;
    expect(digest.split('\n')).toEqual([
      '[fetchUrl output of turn 5, kept as its title, address and first paragraph when the conversation was condensed. Call fetchUrl with "https://example.org/vents" to read it again.]',
      '# Ventilation guide',
      'Source: https://example.org/vents',
      '',
      'Open the roof vents at 24 °C.',
      'Close them at dusk.',
    ]);
  });

  test('no digest for an error, another tool, or an output that does not read as the tool\'s', () => {
    expect(toolDigest({ name: 'readNote', input: '', output: errorText('no note "x"') }, 1)).toBeNull();
    expect(toolDigest({ name: 'listFolder', input: '', output: 'a\n'.repeat(500) }, 1)).toBeNull();
    expect(toolDigest({ name: 'readNote', input: '', output: 'hand-edited\ntext' }, 1)).toBeNull();
    expect(supersededText({ name: 'readNote', input: '', output: '' }, 2, 6)).toBe(
      '[readNote output of turn 2 left out when the conversation was condensed: turn 6 made the same call, and its output is kept.]',
    );
  });
});
