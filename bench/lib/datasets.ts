// The data sets figures share within one run, generated on first use into temp folders
// (removed by cleanup()): the large set (B2, B6, B9) and the UI room (B8).
import { join } from 'node:path';
import { generateDataSet, type DataSet } from './dataset';
import type { BenchContext } from './figure';
import { tempDir } from './processes';

export const LARGE_ROOM = 'bench-large';
export const SMALL_ROOM = 'bench-small';
export const UI_ROOM = 'bench-ui';
/** A small room with the newest activity: the UI opens it first, so opening UI_ROOM is a real open. */
export const UI_LOBBY = 'bench-lobby';
export const SMALL_ROOM_MESSAGES = 10_000;
export const UI_ROOM_MESSAGES = 100_000;

let large: DataSet | null = null;
let ui: DataSet | null = null;

/** One database with a room of ctx.largeMessages messages and one of 10 000. */
export function largeDataSet(ctx: BenchContext): DataSet {
  if (!large) {
    ctx.log(`generating ${ctx.largeMessages.toLocaleString('en')} + ${SMALL_ROOM_MESSAGES.toLocaleString('en')} messages…`);
    large = generateDataSet(join(tempDir(), 'data'), [
      { roomId: LARGE_ROOM, messages: ctx.largeMessages },
      { roomId: SMALL_ROOM, messages: SMALL_ROOM_MESSAGES },
    ]);
    ctx.log(`generated in ${(large.generationMs / 1000).toFixed(1)} s`);
  }
  return large;
}

/** One database with a room of 100 000 messages, and a small lobby room the UI starts in. */
export function uiDataSet(ctx: BenchContext): DataSet {
  if (!ui) {
    ctx.log(`generating ${UI_ROOM_MESSAGES.toLocaleString('en')} messages…`);
    ui = generateDataSet(join(tempDir(), 'data'), [
      { roomId: UI_ROOM, messages: UI_ROOM_MESSAGES },
      { roomId: UI_LOBBY, messages: 20, startsAfterSeconds: UI_ROOM_MESSAGES * 3 + 60 },
    ]);
  }
  return ui;
}

export function generationNote(set: DataSet): string {
  return `data: ${set.totalMessages.toLocaleString('en')} messages generated in ${(set.generationMs / 1000).toFixed(1)} s`;
}

/** The data sets this run generated, for the results file. */
export function generatedDataSets(): Array<{ rooms: Array<{ room_id: string; messages: number }>; generation_ms: number }> {
  return [large, ui]
    .filter((set): set is DataSet => set !== null)
    .map((set) => ({ rooms: set.rooms.map((r) => ({ room_id: r.roomId, messages: r.messages })), generation_ms: Math.round(set.generationMs) }));
}
