// The one dispatcher behind both bridges (Electron IPC and the browser host's WebSocket):
// checks the method name and the input against the contract, calls the implementation,
// checks its output, and answers {ok:true,value} or {ok:false,error:{code,message}}.
import { z } from 'zod';
import { contract, PLAIN_ISSUE, type MethodOutput, type ParsedInput } from '../../shared/contract';
import { isMethodName, type ApiResult, type MethodName } from '../../shared/bridge';
import { isDomainError } from '../domain/errors';

/** What src/main/api provides: one function per contract method. */
export type ApiImplementation = {
  [M in MethodName]: (input: ParsedInput<M>) => z.input<(typeof contract)[M]['output']> | Promise<z.input<(typeof contract)[M]['output']>>;
};

export type Dispatch = (method: string, input: unknown) => Promise<ApiResult>;

export interface DispatcherOptions {
  /** Called for failures that are not expected domain errors (bugs, broken outputs). */
  onUnexpected?: (method: string, error: unknown) => void;
}

const fail = (code: string, message: string): ApiResult => ({ ok: false, error: { code, message } });

/** The first problem zod found, phrased for people ("title: Task title is required."). */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input.';
  // A sentence written for people ("This message is 301 KB; …") needs no field name.
  if (issue.code === 'custom' && issue.params?.plain === PLAIN_ISSUE.plain) return issue.message;
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${path}${issue.message}`;
}

/**
 * Builds the dispatcher over an implementation. Methods the implementation lacks answer
 * `not_available` (features whose core is not built yet show that state, not a crash).
 */
export function createDispatcher(implementation: Partial<ApiImplementation>, options: DispatcherOptions = {}): Dispatch {
  const onUnexpected = options.onUnexpected ?? ((method, error) => console.error(`app API ${method} failed:`, error));
  return async (method, input) => {
    if (!isMethodName(method)) return fail('unknown_method', 'Unknown method.');
    const spec = contract[method];
    const parsed = spec.input.safeParse(input ?? {});
    if (!parsed.success) return fail('invalid_input', describeIssue(parsed.error));
    const handler = implementation[method] as ((input: unknown) => unknown) | undefined;
    if (!handler) return fail('not_available', 'This is not available yet.');
    let value: unknown;
    try {
      value = await handler(parsed.data);
    } catch (error) {
      if (isDomainError(error)) return fail(error.code, domainMessage(error));
      onUnexpected(method, error);
      return fail('internal', 'Something went wrong. Details are in the app log.');
    }
    const checked = spec.output.safeParse(value);
    if (!checked.success) {
      onUnexpected(method, new Error(`output does not match the contract: ${describeIssue(checked.error)}`));
      return fail('internal', 'Something went wrong. Details are in the app log.');
    }
    return { ok: true, value: checked.data as MethodOutput<typeof method> };
  };
}

/**
 * O3 carries the keychain's own explanation in `extra.message`; a near match the MCP tools
 * offer ("Room not found. Did you mean "design-review"?") is said to people too; every other
 * phrase is the message.
 */
function domainMessage(error: { code: string; message: string; hint?: string; extra?: Record<string, unknown> }): string {
  if (error.code === 'O3' && typeof error.extra?.message === 'string') return error.extra.message;
  if (Array.isArray(error.extra?.did_you_mean) && error.hint) return `${error.message} ${error.hint}`;
  return error.message;
}
