// Whether a mention would reach an agent now (issue 14), as a dot and a short label; the
// plain-words meaning is the hover text, and shown in full where there is room (the roster).
import { REACHABILITY_WORDS } from '../../../../shared/model/workers';
import type { Reachability } from '../../../../shared/types';

export function ReachabilityDot({ reachability }: { reachability: Reachability }) {
  return <span className={`reach-dot reach-${reachability}`} aria-hidden="true" />;
}

export function ReachabilityLabel({ reachability, withMeaning = false }: { reachability: Reachability; withMeaning?: boolean }) {
  const words = REACHABILITY_WORDS[reachability];
  return (
    <span className="reachability" title={words.meaning}>
      <ReachabilityDot reachability={reachability} />
      <span className="reachability-label">{words.label}</span>
      {withMeaning && <span className="reachability-meaning">{words.meaning}</span>}
    </span>
  );
}
