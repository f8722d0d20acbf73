// Command-line mistakes, said the same way by every command: one line naming the mistake (and
// the nearest option when one was mistyped), the pointer to --help, and exit 2. Node's parser
// errors are turned into these words; its own text never reaches the person.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearMatches } from '../shared/nearMatch';

export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** "did you mean --port?" for a mistyped option, or ''. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const [nearest] = nearMatches(typed, known, 1);
  return nearest ? `; did you mean ${nearest}?` : '';
}

/** parseArgs (strict), with its errors as UsageErrors in our words. */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    throw usageErrorFrom(error as NodeJS.ErrnoException, options);
  }
}

function usageErrorFrom(error: NodeJS.ErrnoException, options: Options): UsageError {
  const known = Object.keys(options).map((name) => `--${name}`);
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const option = quoted.split('=')[0];
      return new UsageError(`unknown option ${option}${didYouMean(option, known)}`);
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument "${quoted}"`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const option = quoted.split(' ')[0];
      const type = options[option.replace(/^-+/, '')]?.type;
      return new UsageError(type === 'boolean' ? `${option} takes no value` : `${option} needs a value`);
    }
    default:
      return new UsageError(error.message);
  }
}

/** What a command prints for a usage error; the exit code is 2. */
export function usageErrorText(command: string, error: UsageError): string {
  return `letagents-desktop ${command}: ${error.message}\n(\`letagents-desktop ${command} --help\` shows every option.)\n`;
}
