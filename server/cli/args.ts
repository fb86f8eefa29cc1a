// A small, strict argument parser: unknown options are errors (exit 1) that name the fix.
import { TriageError } from '../errors.ts';

export interface OptionSpec {
  [name: string]: { type: 'string' | 'boolean' | 'number'; short?: string };
}

export interface Parsed {
  positionals: string[];
  options: Record<string, string | boolean | number | undefined>;
  help: boolean;
}

export function parseArgs(command: string, args: string[], spec: OptionSpec): Parsed {
  const out: Parsed = { positionals: [], options: {}, help: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--help' || a === '-h') {
      out.help = true;
      continue;
    }
    if (a === '--') {
      out.positionals.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      const s = spec[name];
      if (!s) throw new TriageError('TRIAGE_ERR_USAGE', `${command}: unknown option --${name} (see mcp-triage ${command} --help)`);
      if (s.type === 'boolean') {
        out.options[name] = true;
        continue;
      }
      const v = eq >= 0 ? a.slice(eq + 1) : args[++i];
      if (v === undefined) throw new TriageError('TRIAGE_ERR_USAGE', `${command}: --${name} needs a value`);
      if (s.type === 'number') {
        const n = Number(v);
        if (!Number.isFinite(n)) throw new TriageError('TRIAGE_ERR_USAGE', `${command}: --${name} takes a number, got "${v}"`);
        out.options[name] = n;
      } else out.options[name] = v;
      continue;
    }
    if (a.startsWith('-') && a !== '-') throw new TriageError('TRIAGE_ERR_USAGE', `${command}: unknown option ${a} (see mcp-triage ${command} --help)`);
    out.positionals.push(a);
  }
  return out;
}
