// One search result: who wrote it, when, whether it is in a thread, and the snippet with
// its hits highlighted, as plain text (no Markdown marks). Shared by the room's search and the search of every room.
import type { SearchHit } from '../../../../shared/types';
import { Time } from '../../components/Time';
import { withoutMarkdownMarks } from '../../lib/markdownMarks';

export function SearchHitButton({ hit, onChoose }: { hit: SearchHit; onChoose: (hit: SearchHit) => void }) {
  return (
    <button type="button" className="search-hit" onClick={() => onChoose(hit)}>
      <span className="search-hit-head">
        <strong className="truncate" title={hit.sender.name}>{hit.sender.name}</strong>
        {hit.threadRootNumber !== null && <span className="badge">in a thread</span>}
        <Time iso={hit.createdAt} />
      </span>
      <span className="search-snippet">
        {hit.snippet.map((part, index) => (part.hit ? <mark key={index}>{withoutMarkdownMarks(part.text)}</mark> : <span key={index}>{withoutMarkdownMarks(part.text)}</span>))}
      </span>
    </button>
  );
}

/** ↑/↓ from the search field or a result move between the results (Tab works too). */
export function moveBetweenHits(event: React.KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const hits = [...event.currentTarget.querySelectorAll<HTMLElement>('.search-hit')];
  if (hits.length === 0) return;
  const at = hits.indexOf(document.activeElement as HTMLElement);
  if (at < 0 && event.key === 'ArrowUp') return;
  event.preventDefault();
  const next = at < 0 ? 0 : Math.max(0, Math.min(hits.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)));
  hits[next].focus();
}
