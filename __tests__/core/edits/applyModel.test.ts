/** "Apply to note": the prompt, the search/replace blocks, the whole-note answer, and the real call over HTTP to the local provider server. */
import type { ProviderServer } from '../../../testing/providerServer';
import { applyBlocks, applyMessages, applyModeFor, parseBlocks, predictionSupported, proposedTextOf, rewriteOf, WHOLE_NOTE_MAX_CHARS } from '../../../src/core/edits/applyModel';
import { applyReplyCall, ApplyModelError, editSelectionCall } from '../../../src/core/edits/applyCall';
import { ReviewDraft, rejectAllOutcome } from '../../../src/core/edits/reviewDraft';
import { proposalOf } from '../../../src/core/edits/lineDiff';
import { httpProviders, settingsFor } from '../chat/controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s));

const NOTE = '# Greenhouse\n\nThe greenhouse has two vents.\nWater daily in summer.\n';

test('small notes are rewritten whole, large ones changed by blocks', () => {
  expect(applyModeFor(NOTE)).toBe('rewrite');
  expect(applyModeFor('x'.repeat(WHOLE_NOTE_MAX_CHARS + 1))).toBe('blocks');
  const [system, user] = applyMessages('Garden/Greenhouse.md', NOTE, 'Add a third vent.', 'blocks');
  expect(system.content).toContain('<<<<<<< SEARCH');
  expect(user.content).toBe(`Mode: blocks\nNote "Garden/Greenhouse.md":\n<note>\n${NOTE}\n</note>\n\nReply to apply:\n<reply>\nAdd a third vent.\n</reply>`);
});

test('blocks are parsed in order; an unfinished block is left out', () => {
  const text = 'Here:\n<<<<<<< SEARCH\na\nb\n=======\nc\n>>>>>>> REPLACE\nnoise\n<<<<<<< SEARCH\nd\n=======\n>>>>>>> REPLACE\n<<<<<<< SEARCH\ne\n=======\nf';
  expect(parseBlocks(text)).toEqual([
    { search: 'a\nb', replace: 'c' },
    { search: 'd', replace: '' },
  ]);
});

test('a block must match exactly once; the error says which did not', () => {
  expect(applyBlocks('one\ntwo\nthree', [{ search: 'two', replace: '2' }])).toEqual({ ok: true, text: 'one\n2\nthree' });
  expect(applyBlocks('one\ntwo', [{ search: 'four', replace: '4' }])).toEqual({ ok: false, error: 'Block 1 of 1: its text is not in the note.' });
  expect(applyBlocks('a a', [{ search: 'a', replace: 'b' }])).toEqual({ ok: false, error: 'Block 1 of 1: its text is in the note more than once.' });
  expect(applyBlocks('a', [])).toEqual({ ok: false, error: 'The apply model answered with no search/replace block.' });
});

test('a whole-note answer loses a fence around it and keeps the note\'s final newline as it was', () => {
  expect(rewriteOf('a\n', '```markdown\nb\nc\n```')).toBe('b\nc\n');
  expect(rewriteOf('a', 'b\n\n')).toBe('b');
  expect(proposedTextOf('text', '  ', 'rewrite')).toEqual({ ok: false, error: 'The apply model answered with an empty note.' });
});

test('predicted outputs only on OpenAI Chat Completions models that offer them', () => {
  expect(predictionSupported('openai', 'gpt-4o')).toBe(true);
  expect(predictionSupported('openai', 'gpt-4.1-mini')).toBe(true);
  expect(predictionSupported('openai', 'gpt-4o-2024-08-06')).toBe(true);
  expect(predictionSupported('openai', 'o3-mini')).toBe(false);
  expect(predictionSupported('openai-responses', 'gpt-4o')).toBe(false);
  expect(predictionSupported('openai-compatible', 'gpt-4o')).toBe(false);
});

const deps = () => ({ providers: httpProviders, signal: new AbortController().signal, costOf: () => 0.001 });
const chat = { provider: 'local', model: 'gpt-4o' };

test('a reply applied to a small note: the whole note rewritten, sent with the note as the prediction, cost recorded', async () => {
  const result = await applyReplyCall(settingsFor(server.url), chat, { path: 'Greenhouse.md', note: NOTE, reply: 'Do this: replace "two vents" with "three vents".' }, deps());
  expect(result).toMatchObject({ mode: 'rewrite', predicted: true, proposedText: NOTE.replace('two vents', 'three vents') });
  expect(result.call).toMatchObject({ provider: 'local', model: 'gpt-4o', cost: 0.001 });
  const body = server.requests[server.requests.length - 1].body as { prediction?: unknown; stream?: boolean };
  expect(body.prediction).toEqual({ type: 'content', content: NOTE });
  const proposal = proposalOf({ id: 'apply-1', kind: 'edit', path: 'Greenhouse.md', baseText: NOTE, proposedText: result.proposedText });
  expect(proposal.hunks).toEqual([{ id: 'h1', baseStart: 2, baseLines: ['The greenhouse has two vents.'], newLines: ['The greenhouse has three vents.'] }]);
});

test('a large note gets search/replace blocks, no prediction; a block that does not match fails with the reason and the cost', async () => {
  const big = `${'Filler line.\n'.repeat(1_200)}The greenhouse has two vents.\n`;
  const settings = settingsFor(server.url);
  const result = await applyReplyCall(settings, chat, { path: 'Big.md', note: big, reply: 'replace "two vents" with "four vents"' }, deps());
  expect(result.mode).toBe('blocks');
  expect(result.predicted).toBe(false);
  expect(result.proposedText).toBe(big.replace('two vents', 'four vents'));
  expect((server.requests[server.requests.length - 1].body as { prediction?: unknown }).prediction).toBeUndefined();
  const failure = applyReplyCall(settings, chat, { path: 'Big.md', note: big, reply: 'replace "Filler" with "x"' }, deps());
  await expect(failure).rejects.toThrow(ApplyModelError);
  await expect(failure).rejects.toThrow('Block 1 of 1: its text is in the note more than once.');
});

test('the apply model setting picks another model; a selection is edited by the instruction', async () => {
  const settings = { ...settingsFor(server.url), applyModel: 'local/gpt-4.1-mini' };
  const result = await editSelectionCall(settings, chat, { path: 'G.md', selection: 'two vents', instruction: 'replace "two" with "three"', before: 'The greenhouse has ', after: '.\n' }, deps());
  expect(result).toMatchObject({ text: 'three vents', predicted: true, call: { model: 'gpt-4.1-mini' } });
  expect((server.requests[server.requests.length - 1].body as { model?: string }).model).toBe('gpt-4.1-mini');
});

test('a review draft: every hunk decided before its outcome; the reason only with a rejection; an edit equal to the proposal is an accept', () => {
  const proposal = proposalOf({ id: 'p', kind: 'edit', path: 'a.md', baseText: 'a\nb\nc\nd', proposedText: 'A\nb\nC\nd' });
  const draft = new ReviewDraft(proposal);
  expect(draft.undecided()).toEqual(['h1', 'h2']);
  draft.set('h1', 'accept');
  expect(() => draft.outcome()).toThrow('1 change(s) not decided yet');
  draft.reason = 'because';
  draft.setEdited('h2', ['C']);
  expect(draft.outcome()).toEqual({ decisions: [{ hunkId: 'h1', action: 'accept' }, { hunkId: 'h2', action: 'accept' }] });
  draft.setEdited('h2', ['see']);
  draft.set('h1', 'reject');
  expect(draft.outcome()).toEqual({ decisions: [{ hunkId: 'h1', action: 'reject' }, { hunkId: 'h2', action: 'edit', editedLines: ['see'] }], reason: 'because' });
  expect(rejectAllOutcome(proposal).decisions.map((d) => d.action)).toEqual(['reject', 'reject']);
});
