// Pairing a phone (issue 37): the QR code to scan, the same link as text, the code to type and
// until when it works, and the certificate's fingerprint the phone's pairing page must show.
import type { PairingOffer } from '../../../../../shared/model/phone';
import { CopyButton } from '../../../components/CopyButton';
import { formatClock } from '../../../lib/time';

/** The QR code as one SVG path (each dark module a unit square), with its quiet zone. */
function qrPath(rows: readonly string[]): string {
  let d = '';
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] === '1') d += `M${x + 4} ${y + 4}h1v1h-1z`;
  });
  return d;
}

export function PairingCode({ offer, onDone }: { offer: PairingOffer; onDone: () => void }) {
  const size = offer.qr.length + 8;
  return (
    <div className="pairing" role="group" aria-label="Pair a phone">
      <svg className="pairing-qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={`QR code of the pairing link ${offer.link}`} shapeRendering="crispEdges">
        <rect width={size} height={size} fill="#ffffff" />
        <path d={qrPath(offer.qr)} fill="#000000" />
      </svg>
      <div className="pairing-text">
        <p>Scan it with the phone's camera, or open the link on the phone:</p>
        <p className="inline-form">
          <code className="path pairing-link">{offer.link}</code>
          <CopyButton text={offer.link} label="Copy link" />
        </p>
        <p>
          Or open the address and type the code <strong className="pairing-code">{offer.code}</strong>. It works once, until {formatClock(offer.expiresAt)}.
        </p>
        <p className="muted">
          The phone's browser warns about the certificate the first time (LetAgents made it itself). Its pairing page shows this fingerprint; pair only if it is the same:
        </p>
        <code className="fingerprint">{offer.fingerprint}</code>
        <div>
          <button type="button" className="btn" onClick={onDone}>
            Done
          </button>
        </div>
      </div>
    </div>
  );
}
