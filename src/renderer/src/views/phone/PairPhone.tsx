// The phone's pairing page (issue 37): what the phone is about to pair with (the certificate's
// fingerprint, to compare with the one the computer shows), the code from the link or typed by
// hand, and a name for this phone. Pairing gives this phone a key of its own; it stays in this
// browser for this address.
import { useEffect, useRef, useState } from 'react';
import { pairPhone, type PairingNeeded } from '../../api/connect';

/** A name a person recognises in their list of phones. */
function guessName(agent: string): string {
  if (/iPhone/.test(agent)) return 'iPhone';
  if (/iPad/.test(agent)) return 'iPad';
  if (/Android/.test(agent)) return 'Android phone';
  return 'Phone';
}

export function PairPhone({ pairing, onPaired }: { pairing: PairingNeeded; onPaired: () => void }) {
  const [code, setCode] = useState(pairing.code ?? '');
  const [name, setName] = useState(() => guessName(navigator.userAgent));
  const [problem, setProblem] = useState<string | null>(pairing.code === null && pairing.message.startsWith('Too many') ? pairing.message : null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const pair = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (code.trim() === '') return setProblem('Type the code your computer shows (Settings → Phone → Pair a phone).');
    setBusy(true);
    const verdict = await pairPhone(window, code.trim(), name.trim() || 'Phone');
    setBusy(false);
    if (verdict === 'phone' || verdict === true) return onPaired();
    setProblem(typeof verdict === 'object' ? verdict.message : verdict === 'unreachable' ? 'LetAgents did not answer. Is the computer on, and this phone on the same network?' : 'This code was already used or has expired. Make a new one on your computer.');
  };
  return (
    <main className="no-access pair-phone">
      <div className="home-card">
        <span className="home-mark" aria-hidden="true">
          L
        </span>
        <h1 ref={heading} tabIndex={-1}>
          Pair this phone with LetAgents
        </h1>
        <p className="home-lead">Your phone then shows what your agents need from you, and answers them, over your own network.</p>
        <section aria-labelledby="pair-fingerprint" className="pair-fingerprint">
          <h2 id="pair-fingerprint">Certificate fingerprint (SHA-256)</h2>
          <p className="muted">It must match the one your computer shows next to the code. If it does not, do not pair: something else answered.</p>
          <code className="fingerprint">{pairing.fingerprint || 'unknown'}</code>
        </section>
        <form className="form pair-form" onSubmit={(e) => void pair(e)}>
          <label className="field">
            <span>Pairing code</span>
            <input
              value={code}
              onChange={(e) => (setCode(e.target.value), setProblem(null))}
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={20}
              aria-invalid={problem ? true : undefined}
              aria-describedby="pair-code-hint"
            />
            <span id="pair-code-hint" className="muted">
              Eight letters and digits, like ABCD-EFGH. It works once, for two minutes.
            </span>
          </label>
          <label className="field">
            <span>Name of this phone</span>
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} autoComplete="off" />
          </label>
          {problem && (
            <p className="form-error" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="btn btn-primary btn-large" aria-disabled={busy || undefined}>
            Pair this phone
          </button>
        </form>
      </div>
    </main>
  );
}
