export interface ParsedArgs {
  positional: string[];
  options: Record<string, string>;
  flags: Set<string>;
}

/** Minimal argv parser: `--name value`, `--name=value` and boolean `--flag`. Unknown options are errors. */
export function parseArgs(argv: readonly string[], valued: readonly string[], booleans: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { positional: [], options: {}, flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      out.positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (booleans.includes(name)) {
      out.flags.add(name);
    } else if (valued.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      out.options[name] = value;
    } else {
      throw new Error(`unknown option --${name}`);
    }
  }
  return out;
}
