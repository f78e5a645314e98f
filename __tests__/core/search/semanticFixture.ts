/** A small vault of our own whose questions in other words share no word with their note. */
export const NOTES: Readonly<Record<string, string>> = {
  'Garage/Car maintenance.md':
    '# Car maintenance\n\n## Brakes\n\nReplaced the brake pads on the car in March. Repairing the rear drum took a whole afternoon; the mechanic charged 120 euros.\n\n## Tyres\n\nWinter tyres go on in November. Pressure 2.4 bar front, 2.2 bar rear.\n',
  'Health/Checkups.md': '# Yearly check\n\nSaw the physician for the yearly check. Blood pressure fine; next appointment in spring.\n',
  'Home/Broken window.md': 'The kitchen window is broken since the storm. Glass ordered from the hardware store.\n',
  'Travel/Lisbon.md': '# Journey\n\nThe voyage to Lisbon by train took two days, with a night in Madrid.\n',
  'Money/Shopping list.md': '# Laptop\n\nPurchase an inexpensive laptop for the kids, under 400 euros.\n',
  'Cooking/Bread.md': '# Sourdough\n\nBake the sourdough at 230 degrees for 40 minutes after an overnight proof.\n',
  'Garden/Tulips.md': '# Planting\n\nPlant tulip bulbs in autumn, 15 cm deep, in well-drained soil.\n',
  'Work/Standup.md': '# Bugs\n\nThe login defect reappeared after the release; we triaged it at the standup.\n',
};

/** Questions in the user's words, with no word of the note they are about (the lexical side misses them). */
export const PARAPHRASES: readonly [string, string][] = [
  ['fix automobile', 'Garage/Car maintenance.md'],
  ['when did I see the doctor', 'Health/Checkups.md'],
  ['buy a cheap computer', 'Money/Shopping list.md'],
  ['trip to Portugal', 'Travel/Lisbon.md'],
  ['software error', 'Work/Standup.md'],
];

/** Questions that share words with their note (the lexical side finds them). */
export const LITERAL: readonly [string, string][] = [
  ['sourdough temperature', 'Cooking/Bread.md'],
  ['tulip bulbs depth', 'Garden/Tulips.md'],
  ['winter tyres pressure', 'Garage/Car maintenance.md'],
  ['kitchen window glass', 'Home/Broken window.md'],
];
