/**
 * Canvases as context (issue 31): a JSON Canvas file rendered as deterministic text (reading order,
 * text, file, link and group nodes, edges "A → B (label)"), a malformed one reported with what is
 * wrong and nothing sent. Real files of the sample vault, the real resolver.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CanvasError, parseCanvas } from '../../../src/core/context/canvas/canvasFile';
import { canvasFiles, canvasText } from '../../../src/core/context/canvas/canvasText';
import { ChipResolver } from '../../../src/core/context/resolver';
import { FsVault } from '../../../src/node/fsVault';
import { OverlayVault } from '../../../src/core/scenario/overlayVault';
import { expectGolden } from '../../helpers/golden';
import { VAULT } from '../../helpers/paths';

const BOARD = 'Projects/Greenhouse/Board.canvas';
const boardText = () => readFileSync(path.join(VAULT, ...BOARD.split('/')), 'utf8');

describe('canvas text', () => {
  test('the sample board renders to its golden text', () => {
    const text = canvasText(BOARD, parseCanvas(boardText()));
    expectGolden('canvas-board', { path: BOARD, text: text.split('\n') });
    expect(text).toContain('Group "Build" [group-build]: contains Plan [plan], Ventilation [vents], "Goal" [goal], "Budget cap: 2,000 €" [budget]');
    expect(text).toContain('File [plan] (in Group "Build" [group-build]): [[Projects/Greenhouse/Plan.md]]');
    expect(text).toContain('Link [supplier]: https://example.org/greenhouse-kits');
    expect(text).toContain('- Plan [plan] → Ventilation [vents] (needs)');
    expect(text).toContain('- https://example.org/greenhouse-kits [supplier] — "Risk: late frost in March" [risk] (lead time)');
    expect(text).toContain('- "Budget cap: 2,000 €" [budget] ↔ https://example.org/greenhouse-kits [supplier] (quote)');
  });

  test('order is by position (y, then x, ties by id), whatever the order in the file', () => {
    const doc = parseCanvas(boardText());
    const shuffled = { nodes: [...doc.nodes].reverse(), edges: [...doc.edges].reverse() };
    expect(canvasText(BOARD, shuffled)).toBe(canvasText(BOARD, doc));
    const tie = parseCanvas(
      JSON.stringify({
        nodes: [
          { id: 'b', type: 'text', text: 'B', x: 0, y: 0, width: 10, height: 10 },
          { id: 'a', type: 'text', text: 'A', x: 0, y: 0, width: 10, height: 10 },
          { id: 'c', type: 'text', text: 'C', x: -5, y: 0, width: 10, height: 10 },
        ],
      }),
    );
    expect(canvasText('t.canvas', tie).match(/Text \[(\w)\]/g)).toEqual(['Text [c]', 'Text [a]', 'Text [b]']);
  });

  test('the notes its file nodes point to, once each, in reading order', () => {
    expect(canvasFiles(parseCanvas(boardText()))).toEqual(['Projects/Greenhouse/Plan.md', 'Projects/Greenhouse/Ventilation.md']);
  });

  test('an empty file is an empty canvas', () => {
    expect(canvasText('New.canvas', parseCanvas(''))).toBe('Canvas New.canvas: 0 nodes, 0 edges. Nodes in reading order (top to bottom, left to right).');
  });

  test.each([
    ['{"nodes": [', /the JSON does not parse/],
    ['[]', /the top level is not an object/],
    ['{"nodes": {}}', /"nodes" is not a list/],
    ['{"nodes": [{"id": "a", "type": "text", "x": 0, "y": 0, "width": 1, "height": 1}]}', /node 1 \("a"\) has no "text" text/],
    ['{"nodes": [{"id": "a", "type": "shape", "x": 0, "y": 0, "width": 1, "height": 1}]}', /unknown type "shape"/],
    ['{"nodes": [{"id": "a", "type": "link", "url": "u", "x": "0", "y": 0, "width": 1, "height": 1}]}', /has no number "x"/],
    ['{"nodes": [], "edges": [{"id": "e", "fromNode": "a", "toNode": "b"}]}', /points to the missing node "a"/],
  ])('malformed: %s', (text, message) => {
    expect(() => parseCanvas(text)).toThrow(CanvasError);
    expect(() => parseCanvas(text)).toThrow(message);
  });

  test('through the resolver: a canvas chip is one item; a malformed one is a problem, nothing sent and the file untouched', async () => {
    const vault = new OverlayVault(new FsVault(VAULT));
    const resolver = new ChipResolver(vault);
    const ok = await resolver.resolve([{ kind: 'canvas', path: BOARD }]);
    expect(ok.problems).toEqual([]);
    expect(ok.items.map((i) => [i.id, i.kind, i.title])).toEqual([[BOARD, 'canvas', 'Board']]);
    vault.replace('Broken.canvas', '{"nodes": [ {"id": "x"');
    const bad = await resolver.resolve([{ kind: 'canvas', path: 'Broken.canvas' }]);
    expect(bad.items).toEqual([]);
    expect(bad.problems).toEqual([{ chipId: 'Broken.canvas', reason: 'unreadable', detail: expect.stringMatching(/^Broken\.canvas is not a valid JSON Canvas file: the JSON does not parse/) as unknown }]);
    expect(await vault.read('Broken.canvas')).toBe('{"nodes": [ {"id": "x"');
  });
});
