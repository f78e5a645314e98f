/**
 * The planner's messages: instructions first (recognised by their first line), then the budget,
 * the goal, what is already in context, a compact block per artifact and the question last;
 * deterministic, and bounded when there are many artifacts (previews share a fixed budget).
 */
import {
  ARTIFACT_HEADER,
  ARTIFACT_META,
  JSON_ONLY_INSTRUCTION,
  MAX_PREVIEW_CHARS,
  MIN_PREVIEW_CHARS,
  ONE_LINE_PREVIEW_CHARS,
  PLANNER_MARKER,
  PREVIEW_BUDGET_CHARS,
  QUESTION_HEADING,
  plannerMessages,
  previewShare,
} from '../../../src/core/planning/plannerPrompt';
import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import { LONG, PLAN, VENT, kept, noteArtifact, plannerInput, textArtifact } from './plannerFixtures';

const plan = noteArtifact(PLAN);
const vent = noteArtifact(VENT);
const long = noteArtifact(LONG);
const search = textArtifact('tool:2:1', '[1] Projects/Greenhouse/Ventilation.md\nWax cylinders open the vents.\n[2] Notes/Ideas.md\nA fan.', {
  type: 'tool',
  title: 'localSearch(vents)',
  source: 'turn 2: localSearch',
  historical: true,
});

function userText(messages: ReturnType<typeof plannerMessages>): string {
  return messages[1].content;
}

describe('plannerMessages', () => {
  test('a system message starting with the marker, then one user message', () => {
    const messages = plannerMessages(plannerInput([plan]));
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0].content.split('\n')[0]).toBe(PLANNER_MARKER);
    for (const word of ['include_full', 'summarize', 'rag_extract', 'exclude', 'Priority', 'budget', 'rationale']) expect(messages[0].content).toContain(word);
    expect(messages[0].content).not.toContain(JSON_ONLY_INSTRUCTION);
  });

  test('jsonOnly: the instructions end by asking for the JSON alone', () => {
    const messages = plannerMessages(plannerInput([plan]), { jsonOnly: true });
    expect(messages[0].content.startsWith(PLANNER_MARKER)).toBe(true);
    expect(messages[0].content.endsWith(JSON_ONLY_INSTRUCTION)).toBe(true);
    expect(messages[1]).toEqual(plannerMessages(plannerInput([plan]))[1]);
  });

  test('each artifact: its id (JSON), tokens, chars, type, title, source, historical flag and preview', () => {
    const text = userText(plannerMessages(plannerInput([plan, long, search])));
    const blocks = text.split('\n\n');
    const blockOf = (id: string): string => blocks.find((b) => b.startsWith('[') && b.includes(`id: ${JSON.stringify(id)}`)) ?? '';
    // A note's title that only repeats its file name is left out.
    expect(blockOf(PLAN).split('\n').slice(0, 2)).toEqual([`[1] id: "${PLAN}"`, `  ${plan.tokens} tokens · ${plan.chars} chars · note`]);
    expect(blockOf('tool:2:1').split('\n').slice(0, 2)).toEqual([
      '[3] id: "tool:2:1"',
      `  ${search.tokens} tokens · ${search.chars} chars · tool "localSearch(vents)" · from turn 2: localSearch · historical`,
    ]);
    // The preview, indented: the outline, the head's lines, the tail's lines.
    expect(blockOf(PLAN)).toContain(`  outline: ${plan.preview.outline.join(' | ')}`);
    const firstLine = plan.preview.head.split('\n').find((l) => l.trim())!;
    expect(blockOf(PLAN)).toContain(`  head:\n    ${firstLine}`);
    const lastLine = long.preview.tail.split('\n').filter((l) => l.trim()).at(-1)!;
    expect(long.preview.tail).not.toBe('');
    expect(blockOf(LONG)).toContain(`    ${lastLine.trimEnd()}`);
    expect(blockOf(LONG)).toContain('  tail:\n');
    // Every line of a block after its header is indented: nothing in a preview reads as a header.
    for (const id of [PLAN, LONG, 'tool:2:1']) {
      const lines = blockOf(id).split('\n');
      expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
      expect(ARTIFACT_HEADER.test(lines[0])).toBe(true);
      expect(ARTIFACT_META.test(lines[1])).toBe(true);
    }
  });

  test('budget and goal first, the question last (verbatim, after its heading)', () => {
    const question = 'Which vents open without power?\n[[plan slow]]\nAnd how much do they cost?';
    const text = userText(plannerMessages(plannerInput([plan], { question, budgetTokens: 1234, goal: 'Answer\nbriefly.' })));
    expect(text.split('\n').slice(0, 2)).toEqual(['Budget: 1234 tokens for the artifacts to decide.', 'Goal: Answer briefly.']);
    expect(text.endsWith(`\n${QUESTION_HEADING}\n${question}`)).toBe(true);
  });

  test('kept artifacts are listed as already decided (id, strategy, tokens), not as artifacts to decide', () => {
    const text = userText(plannerMessages(plannerInput([plan], { kept: [kept(vent, 'summarize'), kept(long)] })));
    expect(text).toContain(`Already in context (decided before; do not decide them again):\n- "${VENT}": summarize, ${vent.tokens} tokens\n- "${LONG}": include_full, ${long.tokens} tokens`);
    expect(text).toContain('Artifacts to decide (1):');
    expect(text).not.toContain(`id: "${VENT}"`);
    expect(userText(plannerMessages(plannerInput([plan])))).toContain('Already in context: nothing.');
  });

  test('deterministic: the same input gives the same messages, whatever the clock', () => {
    const input = plannerInput([plan, long, search], { kept: [kept(vent)] });
    const first = plannerMessages(input);
    jest.useFakeTimers().setSystemTime(new Date('2031-05-06T07:08:09Z'));
    try {
      expect(plannerMessages(input)).toEqual(first);
    } finally {
      jest.useRealTimers();
    }
    // The input's order is the prompt's order.
    const ids = userText(plannerMessages(plannerInput([search, plan]))).split('\n').filter((l) => ARTIFACT_HEADER.test(l));
    expect(ids).toEqual(['[1] id: "tool:2:1"', `[2] id: "${PLAN}"`]);
  });

  test('previews share a fixed budget: whole up to 10 artifacts, one line past 50, none past 150', () => {
    expect(previewShare(1)).toBe(MAX_PREVIEW_CHARS);
    expect(previewShare(10)).toBe(MAX_PREVIEW_CHARS);
    expect(previewShare(51)).toBeLessThan(ONE_LINE_PREVIEW_CHARS);
    expect(previewShare(150)).toBe(MIN_PREVIEW_CHARS);
    expect(previewShare(151)).toBeLessThan(MIN_PREVIEW_CHARS);
  });

  describe('many artifacts', () => {
    const body = Array.from({ length: 60 }, (_, i) => `Line ${i} of a long text about greenhouse vents and their wax openers.`).join('\n');
    const artifacts = Array.from({ length: 200 }, (_, i) => textArtifact(`Notes/Long note ${String(i).padStart(3, '0')}.md`, `# Note ${i}\n## Part ${i}\n${body}`));
    const tools = Array.from({ length: 100 }, (_, i) => textArtifact(`tool:3:${i + 1}`, body, { type: 'tool', title: `readNote(${i})`, source: 'turn 3: readNote' }));
    const counter = tokenCounterFor('gpt-4o-mini');
    const promptTokens = (messages: ReturnType<typeof plannerMessages>): number => counter.count(messages[0].content) + counter.count(messages[1].content);
    const previewChars = (text: string): number =>
      text
        .split('\n')
        .filter((l) => l.startsWith('    ') || l.startsWith('  outline: ') || l.startsWith('  head: '))
        .reduce((n, l) => n + l.trim().length, 0);

    test('10: whole previews; 100: one line each; previews within their budget', () => {
      const few = userText(plannerMessages(plannerInput(artifacts.slice(0, 10))));
      expect(few).toContain('  outline: # Note 0 | ## Part 0\n  head:\n    # Note 0\n    ## Part 0\n    Line 0 of');
      expect(few).toContain('  tail:\n');
      const hundred = userText(plannerMessages(plannerInput([...artifacts.slice(0, 50), ...tools.slice(0, 50)])));
      expect(hundred).toContain(`id: "${artifacts[0].id}"\n  ${artifacts[0].tokens} tokens · ${artifacts[0].chars} chars · note\n  outline: # Note 0 | ## Part 0\n\n`);
      expect(hundred).toMatch(/id: "tool:3:1"\n.*\n {2}head: Line 0 of a long text about greenhouse vents and their wax openers\. \/ Line 1 of .*…\n/);
      expect(previewChars(hundred)).toBeLessThanOrEqual(PREVIEW_BUDGET_CHARS);
      expect(previewChars(hundred)).toBeGreaterThan(PREVIEW_BUDGET_CHARS / 2);
      expect(promptTokens(plannerMessages(plannerInput([...artifacts.slice(0, 50), ...tools.slice(0, 50)])))).toBeLessThan(8_000);
    });

    test('200: every id and token count listed, no previews, within 7,000 tokens', () => {
      const messages = plannerMessages(plannerInput(artifacts));
      const text = userText(messages);
      expect(promptTokens(messages)).toBeLessThan(7_000);
      expect(previewChars(text)).toBe(0);
      for (const a of artifacts) expect(text).toContain(`id: ${JSON.stringify(a.id)}\n  ${a.tokens} tokens`);
    });
  });

  test('a preview line longer than the share is cut with an ellipsis', () => {
    const artifact = textArtifact('one-line.txt', 'vent '.repeat(1000));
    const text = userText(plannerMessages(plannerInput([artifact])));
    const line = text.split('\n').find((l) => l.startsWith('    vent'))!;
    expect(line.endsWith('…')).toBe(true);
    expect(line.trim().length).toBeLessThanOrEqual(MAX_PREVIEW_CHARS);
  });
});
