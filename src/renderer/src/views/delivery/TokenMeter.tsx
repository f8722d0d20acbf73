// The token meter as text (issue 14): "≈ 12.3k tokens today · 340k total", the estimate named.
import { estimateTokens, formatTokens, TOKEN_ESTIMATE_NOTE } from '../../../../shared/tokens';
import type { Meter } from '../../../../shared/types';

export function tokensText(meter: Meter): string {
  return `≈ ${formatTokens(estimateTokens(meter.todayBytes))} today · ${formatTokens(estimateTokens(meter.totalBytes))} total`;
}

export function TokenMeter({ meter, budgetTokens = null }: { meter: Meter; budgetTokens?: number | null }) {
  const budget = budgetTokens === null ? '' : ` (budget ${formatTokens(budgetTokens)} a day)`;
  return (
    <span className="token-meter" title={TOKEN_ESTIMATE_NOTE}>
      {tokensText(meter)} tokens{budget}
    </span>
  );
}
