export { createClaudeCodeProvider, type ClaudeCodeDeps } from './provider';
export { cliArgs } from './args';
export { StreamJsonReader, type CliResult } from './streamJson';
