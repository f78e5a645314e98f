/**
 * Writes bench/scenarios/library-chat.json (issue 27): 156 turns on a 16k-window model
 * (gpt-3.5-turbo, a 12,289-token budget), each attaching a new ~2.4 KB note and asking about it; the
 * last turn asks about the third note, not attached again, so its fact must come from the condensed
 * library. The notes are created by the scenario's own edits (no vault needed). Deterministic:
 * `npx tsx bench/budget/generateLibraryScenario.ts`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const TURNS = 156;
const EARLY = 3;

let seed = 27;
const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];

const syllables = ['ka', 'lo', 'mi', 'ru', 'ten', 'va', 'zor', 'qui', 'bel', 'dra', 'fen', 'gor', 'hal', 'jun', 'nex', 'pra', 'sol', 'tur', 'wyn', 'xel'];
const word = (n: number) => Array.from({ length: n }, () => pick(syllables)).join('');
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const nouns = ['greenhouse', 'irrigation line', 'seed tray', 'compost bay', 'shade cloth', 'vent motor', 'soil probe', 'water butt', 'cold frame', 'heater'];
const verbs = ['checks', 'logs', 'adjusts', 'replaces', 'cleans', 'measures', 'schedules', 'reviews'];
const sentence = () => `The team ${pick(verbs)} the ${pick(nouns)} every ${2 + Math.floor(next() * 12)} days and notes the ${pick(nouns)} reading in the weekly log.`;
const paragraph = (n: number) => Array.from({ length: n }, sentence).join(' ');

interface Note {
  readonly path: string;
  readonly name: string;
  readonly codename: string;
  readonly text: string;
}

function note(i: number): Note {
  const name = cap(word(3));
  const codename = cap(word(2)) + String(100 + i);
  const path = `Library/${String(i).padStart(3, '0')} ${name}.md`;
  const text = [
    `# Project ${name}`,
    '',
    '## Overview',
    paragraph(6),
    '',
    '## Schedule',
    paragraph(6),
    '',
    '## Facts',
    `The codename of project ${name} is ${codename}. Its budget owner is ${cap(word(2))} and it started in week ${1 + (i % 52)}.`,
    '',
    '## Risks',
    paragraph(6),
    '',
    '## Notes',
    paragraph(5),
    '',
  ].join('\n');
  return { path, name, codename, text };
}

const notes = Array.from({ length: TURNS - 1 }, (_, i) => note(i + 1));
const turns: unknown[] = notes.map((n, i) => ({
  user: `What is the codename of project ${n.name}, and who owns its budget? (#${i + 1})`,
  edits: [{ note: n.path, replace: n.text }],
  context: [{ note: n.path }],
  expect: [{ note: n.path, heading: 'Facts' }],
  reply: `Project ${n.name} goes by ${n.codename}; its budget owner is named under Facts.`,
}));
const early = notes[EARLY - 1];
turns.push({
  user: `Going back to the start: what was the codename of project ${early.name}?`,
  expect: [{ note: early.path, heading: 'Facts' }],
  reply: `It was ${early.codename}.`,
});

const out = path.join(root, 'bench', 'scenarios', 'library-chat.json');
writeFileSync(out, `${JSON.stringify({ name: 'library-chat', vault: '../../examples/vault', model: 'gpt-3.5-turbo', turns }, null, 1)}\n`);
const sizes = notes.map((n) => Buffer.byteLength(n.text));
process.stdout.write(`wrote ${path.relative(root, out)} (${turns.length} turns, notes ${Math.min(...sizes)}-${Math.max(...sizes)} bytes)\n`);
