// The shape each method group implements: a slice of the dispatcher's implementation table.
import type { MethodName } from '../../../shared/bridge';
import type { ApiImplementation } from '../dispatcher';

export type Methods<K extends MethodName> = Pick<ApiImplementation, K>;
