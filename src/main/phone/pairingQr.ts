// The QR code of a pairing link, as rows of "1" (dark) and "0", for the desktop (an SVG) and
// the command line (half-block characters) to draw. Error correction M: a phone screen photo is clean.
import qrcode from 'qrcode-generator';

export function qrRows(text: string): string[] {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const size = qr.getModuleCount();
  const rows: string[] = [];
  for (let row = 0; row < size; row++) {
    let line = '';
    for (let col = 0; col < size; col++) line += qr.isDark(row, col) ? '1' : '0';
    rows.push(line);
  }
  return rows;
}
