// How PostgreSQL values come back, so both engines give the domain the same JS values:
// int8 (BIGINT columns, COUNT, SUM) and numeric as numbers (pg's default is a string),
// booleans as 0/1 like SQLite. An int8 no JS number holds exactly (a forged team row) comes
// back as Uncountable, which the queries leave out (uncountable.ts). Set per pool, never on
// pg's global parser table.
import pg from 'pg';
import { Uncountable } from './uncountable';

const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;

function toSafeInteger(text: string): number | Uncountable {
  const value = Number(text);
  // Our integers are counters and sizes far below 2^53; a larger one is never rounded into another value.
  return Number.isSafeInteger(value) ? value : new Uncountable(text);
}

const parsers: Record<number, (text: string) => unknown> = {
  [INT8]: toSafeInteger,
  [NUMERIC]: (text) => Number(text),
  [BOOL]: (text) => (text === 't' ? 1 : 0),
};

export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (format ?? 'text') === 'text' && parsers[oid] ? parsers[oid] : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
