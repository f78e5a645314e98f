/**
 * Writes bench/scenarios/budget-greenhouse.json: a 64-turn chat over examples/vault on a 16k-window
 * model (gpt-3.5-turbo), whose history outgrows a 12k budget several times, so the budget benchmark
 * and its tests run on a clone without ../shared. Notes are attached and re-attached, one is
 * edited, a 203-line tool output (the handbook) comes back four times (masked in kept history at compaction time),
 * and the user condenses once by hand. Deterministic: `npx tsx bench/budget/generateScenario.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const vault = path.join(root, 'examples', 'vault');
const read = (note: string) => readFileSync(path.join(vault, note), 'utf8');

const prose = [...read('Tasks/Writing a task.md').split('\n'), ...read('Projects/Greenhouse/Climate log.md').split('\n')].filter((l) => l.trim());
const handbook = read('Tasks/Writing a task.md');
const notes = ['Projects/Greenhouse/Plan.md', 'Tasks/Priorities.md', 'Queries/Backlinks.md', 'Projects/Greenhouse/Ventilation.md', 'Queries/Limiting.md', 'Projects/Greenhouse/Climate log.md', 'Reading/The Market Gardener.md', 'Queries/Comments.md'];
const questions = ['What does that mean for the greenhouse tasks?', 'How would I write that as a task?', 'Give me a query for it.', 'What could go wrong?', 'And for the recurring ones?'];

// A fixed linear congruential sequence: the same scenario on every run.
let seed = 7;
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const slice = (n: number) => {
  const start = Math.floor(next() * (prose.length - n));
  return prose.slice(start, start + n).join('\n');
};

interface Turn {
  user: string;
  context?: Array<{ note: string }>;
  edits?: Array<{ note: string; append: string }>;
  tools?: Array<{ name: string; input: string; output: string }>;
  condense?: boolean;
  reply: string;
}

const turns: Turn[] = [];
for (let i = 1; i <= 64; i++) {
  const turn: Turn = { user: `${questions[i % questions.length]} (#${i})`, reply: '' };
  if (i % 7 === 1) turn.context = [{ note: notes[Math.floor(i / 7) % notes.length] }];
  if (i % 15 === 0) turn.context = [...(turn.context ?? []), { note: notes[0] }];
  if (i === 30) turn.edits = [{ note: notes[0], append: '\n\n## Added during the chat\nThe shade cloth arrived; fit it before the first warm week.\n' }];
  if (i % 16 === 10) turn.tools = [{ name: 'localSearch', input: `task format ${i}`, output: handbook }];
  if (i === 44) turn.condense = true;
  turn.reply = slice(6 + Math.floor(next() * 9));
  turns.push(turn);
}

const out = path.join(root, 'bench', 'scenarios', 'budget-greenhouse.json');
writeFileSync(out, `${JSON.stringify({ name: 'budget-greenhouse', vault: '../../examples/vault', model: 'gpt-3.5-turbo', turns }, null, 1)}\n`);
process.stdout.write(`wrote ${path.relative(root, out)} (${turns.length} turns)\n`);
