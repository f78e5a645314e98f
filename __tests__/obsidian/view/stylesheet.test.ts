import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * styles.css is one flat sheet that several branches append to; a brace lost in a merge silently
 * disables every rule after it (it happened: the model picker's wrap rules stopped applying).
 */
const css = readFileSync(join(__dirname, '..', '..', '..', 'styles.css'), 'utf8');

test('every block in styles.css is closed, and no block opens inside a plain rule', () => {
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const problems: string[] = [];
  const stack: { selector: string; line: number }[] = [];
  let line = 1;
  let selector = '';
  for (const ch of withoutComments) {
    if (ch === '\n') line++;
    if (ch === '{') {
      const parent = stack[stack.length - 1];
      // Only at-rules (@media, @container, @supports) hold rules; a plain rule holding one means a lost '}'.
      if (parent && !parent.selector.startsWith('@')) problems.push(`line ${line}: "${selector.trim()}" opens inside "${parent.selector}" (line ${parent.line})`);
      stack.push({ selector: selector.trim(), line });
      selector = '';
    } else if (ch === '}') {
      if (!stack.pop()) problems.push(`line ${line}: '}' closes nothing`);
      selector = '';
    } else if (ch === ';') {
      selector = '';
    } else {
      selector += ch;
    }
  }
  for (const open of stack) problems.push(`"${open.selector}" (line ${open.line}) is never closed`);
  expect(problems).toEqual([]);
});

test('no merge conflict markers are left in styles.css', () => {
  expect(css).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m);
});
