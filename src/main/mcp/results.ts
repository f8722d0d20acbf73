// Tool results (mcp-tools.md §2.1): one text item holding pretty-printed JSON, and the
// same document as structuredContent (checked by clients against the tool's
// outputSchema). Soft failures are normal results {success:false, error, hint?}; hard
// failures are isError results whose text is the phrase.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError, isDomainError } from '../domain/errors';
import { DatabaseBusyError } from '../store/storageErrors';

export function jsonResult(value: unknown): CallToolResult {
  const structured = value as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: structured };
}

export function softFailure(error: DomainError): CallToolResult {
  return jsonResult({ success: false, error: error.message, ...(error.hint ? { hint: error.hint } : {}), ...(error.extra ?? {}) });
}

export function hardFailure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Maps anything a tool threw to its result: soft stays a result, everything else is hard. */
export function failureResult(error: unknown): CallToolResult {
  if (isDomainError(error)) return error.kind === 'soft' ? softFailure(error) : hardFailure(error.message);
  if (error instanceof DatabaseBusyError) return hardFailure(error.message);
  console.error('tool failed unexpectedly:', error);
  return hardFailure(`Internal error: ${error instanceof Error ? error.message : String(error)}`);
}

/** The posting tools report room resolution failures as hard errors (mcp-tools.md §2.2). */
export function hardened(error: DomainError): DomainError {
  return error.kind === 'hard' ? error : new DomainError(error.code, 'hard', error.message, error.hint, error.extra);
}

export const INVALID_PARAMS = -32602;

/**
 * A JSON-RPC error for the requests other than tools/call (resources, prompts): the SDK
 * sends `code`, the plain message and `data` as they are.
 */
export function rpcError(code: number, message: string, data?: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { code, ...(data ? { data } : {}) });
}
