// A QR code in a terminal: two rows of modules per line with half blocks, light modules drawn
// (as `qrencode -t UTF8` does, for the usual dark terminal), inside a quiet zone of two modules.
const QUIET = 2;

/** `rows`: the code as rows of "1" (dark) and "0" (light). */
export function qrText(rows: readonly string[]): string {
  const size = rows.length + 2 * QUIET;
  const light = (r: number, c: number) => {
    const row = rows[r - QUIET];
    return row === undefined || c < QUIET || c >= QUIET + row.length || row[c - QUIET] === '0';
  };
  const lines: string[] = [];
  for (let r = 0; r < size; r += 2) {
    let line = '  ';
    for (let c = 0; c < size; c++) {
      const top = light(r, c);
      const bottom = r + 1 < size ? light(r + 1, c) : true;
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(line);
  }
  return lines.join('\n');
}
