// What the commands that work through the running app share (`agent`, `automation`): the app's
// refusal as the whole story, required and chosen options, counts, a text given inline or from a
// file (standard input with `-`), and finding a thing by its name or id.
import { readFileSync } from 'node:fs';
import type { ApiResult } from '../shared/bridge';
import { NoAppError } from './appApi';
import { UsageError, usageErrorText } from './usage';

/** The app refused (bad input, unknown name): its message is the whole story. */
export class AppRefusal extends Error {
  constructor(message: string, readonly code = 'refused') {
    super(message);
  }
}

/** A command's mistake (exit 2, with the pointer to --help) or the app's refusal or absence (exit 1), said on stderr; anything else is rethrown. */
export function failureExit(command: string, action: string | undefined, error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(usageErrorText(`${command} ${action}`, error));
    return 2;
  }
  if (error instanceof NoAppError || error instanceof AppRefusal) {
    process.stderr.write(`letagents-desktop ${command}: ${error.message}\n`);
    return 1;
  }
  throw error;
}

export function unwrap<T>(result: ApiResult): T {
  if (!result.ok) throw new AppRefusal(result.error.message, result.error.code);
  return result.value as T;
}

export function required(flag: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

/** One of `options` (keys are what people type, values what the app takes). */
export function choose(flag: string, value: string | undefined, options: Record<string, string>): string {
  const chosen = options[required(flag, value).toLowerCase()];
  if (!chosen) throw new UsageError(`${flag} must be one of ${[...new Set(Object.keys(options).filter((k) => !k.includes('_')))].join(', ')}`);
  return chosen;
}

/** A positive whole number, or "none" for no limit. */
export function count(flag: string, value: string): number | null {
  if (value === 'none') return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number or "none", not "${value}"`);
  return Number(value);
}

/** `--<name>`, or the text of `--<name>-file` (`-`: standard input); not both. Kept off the command line, which other users can read. */
export function textOrFile(name: string, text: string | undefined, file: string | undefined): string | undefined {
  if (file === undefined) return text;
  if (text !== undefined) throw new UsageError(`give --${name} or --${name}-file, not both`);
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --${name}-file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The one thing with this id, or this name (any case); a name several share asks for the id. */
export function findByName<T>(things: readonly T[], wanted: string, idOf: (t: T) => string, nameOf: (t: T) => string, describe: (t: T) => string, what: string, listCommand: string): T {
  const byId = things.find((t) => idOf(t) === wanted);
  if (byId) return byId;
  const named = things.filter((t) => nameOf(t).toLowerCase() === wanted.toLowerCase());
  if (named.length === 1) return named[0];
  if (named.length > 1) throw new AppRefusal(`${named.length} ${what}s are named "${wanted}"; use an id: ${named.map(describe).join(', ')}`);
  throw new AppRefusal(`no ${what} is named "${wanted}". \`${listCommand}\` shows them.`);
}
