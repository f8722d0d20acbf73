// Tables that snapshots proving "a refused call changed nothing" leave out: receipts and the
// token meter (issue 14) are the app's record of what its tools returned. Every result adds
// to the meter, a refused one too, and both are written in the background a moment later, so
// an earlier good call's receipts may land while a refused one runs.
export const DELIVERY_RECORD_TABLES: ReadonlySet<string> = new Set(['delivery_spans', 'token_meter']);
