/**
 * The layers of Strata's code, enforced by `npm run lint` (depcruise src --config .dependency-cruiser.cjs).
 * Type imports and re-exports count (tsPreCompilationDeps): a type that points up is a knot all the same.
 *
 * From the bottom up:
 *   1. the chat model (src/core/conversation/model.ts) and the record shapes a turn holds
 *      (src/core/conversation/records/): plain data, no feature;
 *   2. settings (src/core/settings/): read by features, importing none of them;
 *   3. features (agent, vaultQa, planning, projects, slashPrompts, search, budget, context, engine,
 *      compiler, conversation, ports, tokens, and the small shared modules at the core's root);
 *   4. the orchestration at the top of the core (src/core/chat/, and the scenario runner that drives it);
 *   5. adapters: src/providers (model clients) over the core; src/obsidian, src/node and src/main.ts over both.
 */

/** Every feature folder or module of the core: what the model, its records and the settings may not import. */
const FEATURES = '^src/core/(agent|vaultQa|planning|projects|slashPrompts|systemPrompt[.]ts|search|budget|chat|settings|scenario)(/|[.]ts$)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle ties modules into one knot: none can be read, tested or moved alone.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-imports-no-adapter',
      comment: 'src/core runs in plain Node and reaches the world only through src/core/ports.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(obsidian|providers|node)/|^src/main[.]ts$' },
    },
    {
      name: 'model-imports-no-feature',
      comment:
        'The chat model and the records it holds sit at the bottom: features depend on them, never the reverse. ' +
        'A shape the model must hold belongs in src/core/conversation/records/.',
      severity: 'error',
      from: { path: '^src/core/conversation/(model[.]ts$|records/)' },
      to: { path: FEATURES },
    },
    {
      name: 'settings-import-no-feature',
      comment: 'Settings are read by features but import none of them (their shared shapes live in src/core/settings/).',
      severity: 'error',
      from: { path: '^src/core/settings/' },
      to: { path: '^src/core/(agent|vaultQa|planning|projects|slashPrompts|systemPrompt[.]ts|search|budget|chat|scenario|context|engine|compiler|conversation|tokens)(/|[.]ts$)' },
    },
    {
      name: 'features-import-no-chat',
      comment: 'src/core/chat/ orchestrates the features at the top of the core: no feature reaches up into it.',
      severity: 'error',
      from: { path: '^src/core/', pathNot: '^src/core/(chat|scenario)/' },
      to: { path: '^src/core/chat/' },
    },
    {
      name: 'providers-import-no-host',
      comment: 'Model adapters (src/providers) build on the core; the Obsidian and Node hosts build on them, not the reverse.',
      severity: 'error',
      from: { path: '^src/providers/' },
      to: { path: '^src/(obsidian|node)/|^src/main[.]ts$' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
