// Renders message Markdown (sanitised in lib/markdown). Links leave the app only through the
// safe external-link rule; task_N buttons open the task.
import { memo, useMemo } from 'react';
import { renderMarkdown, renderMessageMarkdown } from '../lib/markdown';
import { openExternal } from '../lib/openExternal';
import { useApi } from '../api/ApiContext';

export interface MarkdownProps {
  text: string;
  /** A timeline message's number: its HTML is then kept per message, so rows that scroll back into view are never parsed again. */
  messageNumber?: number;
  onTask?: (number: number) => void;
  className?: string;
}

export const Markdown = memo(function Markdown({ text, messageNumber, onTask, className = 'markdown' }: MarkdownProps) {
  const api = useApi();
  const html = useMemo(() => (messageNumber === undefined ? renderMarkdown(text) : renderMessageMarkdown(messageNumber, text)), [messageNumber, text]);
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
  // The HTML is sanitised by DOMPurify in lib/markdown; nothing else is inserted raw.
  return <div className={className} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
});
