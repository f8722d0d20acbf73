// The time left on the one-time code, as a progress bar that empties.
import { useEffect, useState } from 'react';
import { formatCountdown } from '../../lib/time';

export function CountdownBar({ expiresAt, totalSeconds }: { expiresAt: string; totalSeconds: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.round((new Date(expiresAt).getTime() - now) / 1000));
  const total = Math.max(totalSeconds, 1);
  return (
    <div className="countdown">
      <div className="countdown-track" role="progressbar" aria-label="Time left for this code" aria-valuemin={0} aria-valuemax={total} aria-valuenow={left} aria-valuetext={`${Math.floor(left / 60)} minutes ${String(left % 60).padStart(2, '0')} seconds left`}>
        <div className="countdown-fill" style={{ width: `${Math.min(100, (left / total) * 100)}%` }} />
      </div>
      <span className="countdown-text">
        Code expires in {formatCountdown(left)}
      </span>
    </div>
  );
}
