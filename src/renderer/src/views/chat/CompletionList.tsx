// The list of completions under the composer (a listbox the textarea controls).
import type { CompletionOption } from '../../lib/completion';

export function CompletionList({ id, options, active, onPick }: { id: string; options: CompletionOption[]; active: number; onPick: (option: CompletionOption) => void }) {
  return (
    <ul id={id} role="listbox" className="completion" aria-label="Suggestions">
      {options.map((option, index) => (
        <li
          key={option.insert}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          className={index === active ? 'completion-item active' : 'completion-item'}
          // mousedown, not click: keep the focus in the textarea
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(option);
          }}
        >
          <span className="completion-label">{option.label}</span>
          <span className="completion-detail">{option.detail}</span>
        </li>
      ))}
    </ul>
  );
}
