import { argumentPieces, parseScript, scriptedReply, stripDirectives, type ToolConversation } from '../../../testing/providerServer/toolScript';

const declared = new Set(['readNote', 'localSearch']);

describe('parseScript', () => {
  it('makes one step per line holding directives, the directives of a line its parallel calls', () => {
    const text = 'Find it\n[[tool localSearch {"query":"x"}]]\nthen [[tool readNote {"path":"a.md"}]]\t[[tool readNote {"path":"b.md"}]] and done';
    expect(parseScript(text, declared)).toEqual([
      [{ name: 'localSearch', args: { query: 'x' }, arguments: '{"query":"x"}' }],
      [
        { name: 'readNote', args: { path: 'a.md' }, arguments: '{"path":"a.md"}' },
        { name: 'readNote', args: { path: 'b.md' }, arguments: '{"path":"b.md"}' },
      ],
    ]);
  });

  it('re-serializes the arguments compactly', () => {
    expect(parseScript('[[tool readNote {  "path" :  "a.md" } ]]', declared)[0][0].arguments).toBe('{"path":"a.md"}');
  });

  it('leaves out undeclared tools, and drops steps left empty', () => {
    const text = '[[tool nope {}]]\n[[tool nope {}]] [[tool readNote {"path":"a"}]]';
    expect(parseScript(text, declared)).toEqual([[{ name: 'readNote', args: { path: 'a' }, arguments: '{"path":"a"}' }]]);
    expect(parseScript('[[tool readNote {}]]', new Set())).toEqual([]);
  });

  it('treats what does not form a directive as text', () => {
    const notDirectives = [
      '[[tool readNote]]', // no JSON
      '[[tool readNote [1]]]', // not an object
      '[[tool readNote {"a":1}', // no closing ]]
      '[[tool 9lives {}]]', // bad name
      '[[toolreadNote {}]]',
      '[[tool readNote {"a":[[1]]}]]', // JSON holding ]] ends at the first ]]
      '[[tool readNote {"a":\n1}]]', // spans lines
    ];
    for (const text of notDirectives) expect(parseScript(text, declared)).toEqual([]);
    expect(parseScript('[[tool readNote {"a":"[x]"}]]', declared)[0][0].args).toEqual({ a: '[x]' });
    // A broken opening does not hide a directive after it.
    expect(parseScript('[[tool oops [[tool readNote {}]]', declared)).toEqual([[{ name: 'readNote', args: {}, arguments: '{}' }]]);
  });

  it('scans pathological lines in linear time', () => {
    const started = Date.now();
    parseScript('[[tool readNote {"a":'.repeat(50_000), declared);
    parseScript(`${'[[tool readNote x '.repeat(50_000)}]]`, declared);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('stripDirectives', () => {
  it('removes directives with the blanks before them, and drops lines they leave blank', () => {
    expect(stripDirectives('Read a [[tool readNote {"path":"a.md"}]] now\n  [[tool localSearch {}]]  \nend')).toBe('Read a now\nend');
    expect(stripDirectives('keep [[tool readNote]] this')).toBe('keep [[tool readNote]] this');
  });
});

describe('argumentPieces', () => {
  it('splits into 2 or 3 pieces that join back, never inside a code point', () => {
    expect(argumentPieces('{}')).toEqual(['{', '}']);
    expect(argumentPieces('{"path":"a.md"}')).toHaveLength(3);
    const emoji = '{"q":"😀😀😀"}'; // a split by UTF-16 units would cut an emoji in two
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const piece of argumentPieces(emoji)) expect(piece).not.toMatch(loneSurrogate);
    expect(argumentPieces(emoji).join('')).toBe(emoji);
  });
});

describe('scriptedReply', () => {
  const conversation = (callTurns: number, results: ToolConversation['results'] = []): ToolConversation => ({
    declared,
    userText: 'Go\n[[tool localSearch {"query":"x"}]]\n[[tool readNote {"path":"a.md"}]]',
    callTurns,
    results,
  });

  it('answers the step at the number of call turns taken, then the text', () => {
    expect(scriptedReply(conversation(0), [])).toMatchObject({ kind: 'calls', step: 1, calls: [{ name: 'localSearch' }] });
    expect(scriptedReply(conversation(1), [])).toMatchObject({ kind: 'calls', step: 2, calls: [{ name: 'readNote' }] });
    expect(scriptedReply(conversation(2), [])).toEqual({ kind: 'text', text: 'Seen context: none. Question: Go.' });
  });

  it('names the tools used and cites a numbered catalog', () => {
    const results = [
      { name: 'localSearch', text: 'Results:\n[1] a.md: A' },
      { name: 'readNote', text: '<note_context id="a.md" title="A">\nx\n</note_context>' },
    ];
    expect(scriptedReply(conversation(2, results), [results[1].text])).toEqual({
      kind: 'text',
      text: 'Seen context: a.md. Question: Go. Tools used: localSearch, readNote. Sources: [1].',
    });
    expect(scriptedReply(conversation(2, [{ name: 'readNote', text: 'see [1] there' }]), [])).toEqual({
      kind: 'text',
      text: 'Seen context: none. Question: Go. Tools used: readNote.',
    });
  });
});
