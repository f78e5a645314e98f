/**
 * A large handbook note written for these tests (no corpus text): one section per topic, each with
 * filler paragraphs in its own words and one fact only it holds ("The greenhouse access code is
 * GH-4417."), so a test can tell whether the section that answers a question reached a request.
 */
export const HANDBOOK_TOPICS = [
  ['greenhouse', 'seedlings', 'humidity', 'ventilation'],
  ['invoices', 'receipts', 'reimbursement', 'ledger'],
  ['bicycles', 'tyres', 'commuting', 'helmets'],
  ['sourdough', 'starter', 'hydration', 'proofing'],
  ['telescope', 'eyepiece', 'collimation', 'observing'],
  ['beekeeping', 'hives', 'swarming', 'varroa'],
  ['backups', 'snapshots', 'restore', 'retention'],
  ['kayaking', 'paddles', 'currents', 'portage'],
  ['printing', 'filament', 'nozzle', 'calibration'],
  ['orchard', 'pruning', 'grafting', 'rootstock'],
  ['podcast', 'microphone', 'editing', 'episodes'],
  ['climbing', 'belay', 'carabiners', 'bouldering'],
] as const;

const FILLER = [
  'Keep a short log after each session so the next person knows what changed.',
  'When in doubt, ask in the shared channel before changing anything that others rely on.',
  'The checklist below is reviewed every spring and updated when the equipment changes.',
  'Write down what you tried, what happened, and what you would do differently next time.',
  'Small mistakes are fine; unrecorded mistakes are what make the next season harder.',
  'Most questions are answered further down; the index at the end lists every procedure.',
];

/** The code fact of topic `i`: unique per topic. */
export function handbookFact(i: number): string {
  const [topic] = HANDBOOK_TOPICS[i];
  return `The ${topic} access code is ${topic.slice(0, 2).toUpperCase()}-${4400 + i * 17}.`;
}

/** A handbook of `paragraphs` paragraphs per section (about 180 characters each, in words of its topic). */
export function handbook(paragraphs: number, title = 'Household handbook'): string {
  const out = [`# ${title}`, '', 'Procedures for the shared house, one section per topic.', ''];
  HANDBOOK_TOPICS.forEach((words, i) => {
    out.push(`## ${words[0][0].toUpperCase()}${words[0].slice(1)}`, '');
    for (let p = 0; p < paragraphs; p++) {
      const w = (k: number) => words[(p + k) % words.length];
      out.push(`Notes on ${w(0)} and ${w(1)}: check the ${w(2)} before the ${w(3)}, and again after. ${FILLER[(i + p) % FILLER.length]}`, '');
      if (p === Math.floor(paragraphs / 2)) out.push(handbookFact(i), '');
    }
  });
  return out.join('\n');
}
