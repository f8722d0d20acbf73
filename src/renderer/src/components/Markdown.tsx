// Renders message Markdown (sanitised in lib/markdown). Links leave the app only through the
// safe external-link rule; task_N buttons open the task.
import { memo, useMemo } from 'react';
import { renderMarkdown } from '../lib/markdown';
import { openExternal } from '../lib/openExternal';
import { useApi } from '../api/ApiContext';

export const Markdown = memo(function Markdown({ text, onTask, className = 'markdown' }: { text: string; onTask?: (number: number) => void; className?: string }) {
  const api = useApi();
  const html = useMemo(() => renderMarkdown(text), [text]);
  const onClick = (event: React.MouseEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const task = target.closest<HTMLElement>('button.task-ref');
    if (task) {
      event.preventDefault();
      onTask?.(Number(task.dataset.task));
      return;
    }
    const link = target.closest('a');
    if (link) {
      event.preventDefault();
      void openExternal(api, link.getAttribute('href') ?? '');
    }
  };
  // The HTML is sanitised by DOMPurify in renderMarkdown; nothing else is inserted raw.
  return <div className={className} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
});
