// Markdown marks taken out of a piece of text shown as plain text (search snippets, issue 27):
// "**Ship** `v2` — see [notes](https://…)" reads "Ship v2 — see notes". Works on pieces that
// may cut a mark in two (a snippet is split around its hits), so it drops marks, not pairs.
export function withoutMarkdownMarks(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // [text](url), ![alt](src)
    .replace(/\]\([^)\s]*\)?/g, '') // the tail of a link cut before its text ended
    .replace(/```[\w-]*/g, '')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/(^|\n)\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/g, '$1') // headings, quotes, list items
    .replace(/(^|[\s(])[*_](?=\S)/g, '$1') // *emphasis* opening
    .replace(/(\S)[*_](?=[\s).,;:!?]|$)/g, '$1') // and closing
    .replace(/\s*\n\s*/g, ' ');
}
