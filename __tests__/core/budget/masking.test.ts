import { maskCodeBlocks, maskLines, maskTurn, truncatedMarker } from '../../../src/core/engine/masking';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n');

describe('observation masking (seed 001)', () => {
  test('at the limit nothing changes; one line over, the first and last thirds stay around a marker', () => {
    expect(maskLines(lines(200), 200)).toEqual({ text: lines(200), masked: false });
    const { text, masked } = maskLines(lines(201), 200);
    expect(masked).toBe(true);
    const out = text.split('\n');
    expect(out).toHaveLength(66 + 1 + 66);
    expect(out[0]).toBe('line 1');
    expect(out[65]).toBe('line 66');
    expect(out[66]).toBe(truncatedMarker(201 - 132));
    expect(out[66]).toBe('[... 69 lines truncated ...]');
    expect(out[67]).toBe('line 136');
    expect(out[132]).toBe('line 201');
  });

  test('masking is idempotent (a second compaction does not cut again)', () => {
    const once = maskLines(lines(1_000), 200).text;
    expect(maskLines(once, 200)).toEqual({ text: once, masked: false });
  });

  test('code blocks over the limit keep their fences, language and head and tail; short ones and prose are untouched', () => {
    const long = ['Intro', '```ts', lines(30, 'code'), '```', 'Between', '~~~', lines(5, 'short'), '~~~', 'Outro'].join('\n');
    const { text, masked } = maskCodeBlocks(long, 10);
    expect(masked).toBe(1);
    const out = text.split('\n');
    expect(out[0]).toBe('Intro');
    expect(out[1]).toBe('```ts');
    expect(out.slice(2, 5)).toEqual(['code 1', 'code 2', 'code 3']);
    expect(out[5]).toBe('[... 24 lines truncated ...]');
    expect(out.slice(6, 9)).toEqual(['code 28', 'code 29', 'code 30']);
    expect(out[9]).toBe('```');
    expect(text).toContain(['Between', '~~~', lines(5, 'short'), '~~~', 'Outro'].join('\n'));
  });

  test('an unclosed fence runs to the end of the text, as markdown reads it', () => {
    const { text, masked } = maskCodeBlocks(['```', lines(40, 'x')].join('\n'), 12);
    expect(masked).toBe(1);
    expect(text.split('\n')).toHaveLength(1 + 4 + 1 + 4);
  });

  test('a turn: long tool outputs and code blocks in the message and reply are masked, counted; a short turn keeps its identity', () => {
    const turn = {
      userText: ['Fix this:', '```', lines(20, 'u'), '```'].join('\n'),
      reply: 'Short reply.',
      tools: [
        { name: 'search', input: 'q', output: lines(300) },
        { name: 'search', input: 'r', output: lines(3) },
      ],
    };
    const { turn: masked, masked: count } = maskTurn(turn, { maxOutputLines: 200, maxCodeLines: 10 });
    expect(count).toBe(2);
    expect(masked.tools[0].output).toContain('[... 168 lines truncated ...]');
    expect(masked.tools[1]).toBe(turn.tools[1]);
    expect(masked.userText).toContain('[... 14 lines truncated ...]');
    expect(masked.reply).toBe('Short reply.');
    const small = { userText: 'hi', reply: 'hello', tools: [] };
    expect(maskTurn(small, { maxOutputLines: 200, maxCodeLines: 10 }).turn).toBe(small);
  });
});
