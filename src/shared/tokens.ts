// The token estimate the meter shows (issue 14): tokens are never counted exactly (each model
// tokenizes differently), so the app shows UTF-8 bytes of tool results divided by 4, the
// usual rule of thumb for English text and JSON, and says so wherever it shows a number.
export const BYTES_PER_TOKEN = 4;

/** What the number means, in the words the UI shows next to it. */
export const TOKEN_ESTIMATE_NOTE = 'Tokens are estimated as UTF-8 bytes ÷ 4 of what LetAgents tools returned to the agents.';

export function estimateTokens(bytes: number): number {
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** "12.3k", "980", "1.2M": a token count in a few characters. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}
