// Numbered migrations. Migration N brings a database from user_version N-1 to N.
// Append only: a released migration never changes.
import { migration001 } from './001_initial';

export const migrations: readonly string[] = [migration001];
export const SCHEMA_VERSION = migrations.length;
