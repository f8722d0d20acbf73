// Tables that snapshots proving "a refused call changed nothing" leave out, because the app
// writes them in the background whatever the call did:
// - receipts and the token meter (issue 14) are the app's record of what its tools returned.
//   Every result adds to the meter, a refused one too, and both are written a moment later, so
//   an earlier good call's receipts may land while a refused one runs;
// - app_hosts holds each app's heartbeat in a team database (hub.ts, every 10 s): the first
//   one adds this app's row whenever its timer fires, during a refused call too.
export const BACKGROUND_WRITE_TABLES: ReadonlySet<string> = new Set(['delivery_spans', 'token_meter', 'app_hosts']);
