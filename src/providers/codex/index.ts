export { createCodexProvider, type CodexDeps } from './provider';
export { codexArgs, CODEX_KEY_VARIABLE, tomlString } from './args';
export { CodexEventReader, parseCodexUsage } from './events';
export { lastTurnUsage, findRollout, type CodexFiles } from './rollout';
