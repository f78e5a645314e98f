export { createClaudeCodeProvider, type ClaudeCodeDeps, type CliChild, type CliSpawnOptions, type SpawnFn } from './provider';
export { cliArgs } from './args';
export { cliPrompt, type CliPrompt } from './prompt';
export { StreamJsonReader, type CliResult } from './streamJson';
