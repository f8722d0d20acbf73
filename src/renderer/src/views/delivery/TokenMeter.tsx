// The token meter as text (issue 14): "≈ 12.3k tokens today · 340k total", the estimate named.
import { estimateTokens, formatTokens, TOKEN_ESTIMATE_NOTE } from '../../../../shared/tokens';
import type { Meter } from '../../../../shared/types';

export function tokensText(meter: Meter): string {
  return `≈ ${formatTokens(estimateTokens(meter.todayBytes))} today · ${formatTokens(estimateTokens(meter.totalBytes))} total`;
}

/** The exact counts behind the estimate, for the hover text. */
export function meterDetail(meter: Meter): string {
  return `${meter.todayBytes.toLocaleString('en-US')} bytes today, ${meter.totalBytes.toLocaleString('en-US')} bytes in total. ${TOKEN_ESTIMATE_NOTE}`;
}

/** The room header's meter: "≈ 12.3k tokens today (budget 50k) · 340k total". */
export function TokenMeter({ meter, budgetTokens = null }: { meter: Meter; budgetTokens?: number | null }) {
  const budget = budgetTokens === null ? '' : ` of a ${formatTokens(budgetTokens)} budget`;
  return (
    <span className="token-meter" title={meterDetail(meter)}>
      ≈ {formatTokens(estimateTokens(meter.todayBytes))} tokens today{budget} · {formatTokens(estimateTokens(meter.totalBytes))} in total
    </span>
  );
}
