import { inputBudget } from '../../../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS, type BudgetSettings } from '../../../src/core/settings/budgetSettings';
import { ExtractiveSummarizer } from '../../../src/core/budget/summarizer';
import type { ReplayBudget } from '../../../src/core/scenario/replay';
import type { Scenario } from '../../../src/core/scenario/scenario';
import { FsVault } from '../../../src/node/fsVault';
import { VAULT } from '../../helpers/paths';

/**
 * A long chat over the project's vault that a small budget condenses several times: notes attached
 * now and then, long tool outputs and long code blocks in replies (masked at compactions), and a
 * manual condense (turn 16).
 */
const NOTES = ['Piano Lessons/Lesson 4.md', 'Notes/Ideas.md', 'Projects/Greenhouse/Plan.md', 'Projects/Greenhouse/Seedlings.md', 'Reading/The Market Gardener.md'];
const TOPICS = ['the piano', 'the greenhouse', 'my reading', 'the tracker'];

const lines = (n: number, what: string) => Array.from({ length: n }, (_, i) => `${what} ${i + 1}: ${'value '.repeat(4)}${i * 7}`).join('\n');

export function budgetScenario(turns = 30): Scenario {
  return {
    name: 'budget-reload',
    model: 'gpt-4o',
    turns: Array.from({ length: turns }, (_, i) => {
      const n = i + 1;
      return {
        user: `Question ${n}: what should I do next about ${TOPICS[n % 4]}? Please be specific and practical.`,
        context: n % 6 === 1 ? [{ kind: 'note' as const, path: NOTES[Math.floor(n / 6) % NOTES.length] }] : [],
        edits: [],
        tools: n % 5 === 3 ? [{ name: 'search', input: `query ${n}`, output: lines(40, `result ${n}`) }] : [],
        reply:
          n % 4 === 0
            ? `Here is a sketch for step ${n}:\n\n\`\`\`ts\n${lines(30, 'const line')}\n\`\`\`\n\nRun it once and tell me what it prints.`
            : `Answer ${n}: ${'Keep practising slowly, log each session, and check the notes again before the next lesson. '.repeat(3)}`,
        remove: [],
        ...(n === 17 ? { condense: true } : {}),
      };
    }),
  };
}

/** 3,000 tokens with the offline summarizer (or none: turns omitted), 2 messages kept, masking over 10 lines. */
export function smallBudget(summarize = true): ReplayBudget {
  const settings: BudgetSettings = { ...DEFAULT_BUDGET_SETTINGS, maxContextTokens: 3000, keepMessages: 2, maxOutputLines: 10, maxCodeLines: 10 };
  return { budget: inputBudget('gpt-4o', settings), settings, summarizer: summarize ? new ExtractiveSummarizer() : null };
}

export const vault = (): FsVault => new FsVault(VAULT);
