// A real link to a page outside the app (a PR, an issue): an <a> people can see, hover and
// copy, which leaves only through the safe external-link rule (https: only).
import type { ReactNode } from 'react';
import { useApi } from '../api/ApiContext';
import { openExternal } from '../lib/openExternal';
import { Icon } from './Icon';

export function ExternalLink({ href, children, className, title }: { href: string; children: ReactNode; className?: string; title?: string }) {
  const api = useApi();
  return (
    <a
      href={href}
      className={className}
      title={title}
      target="_blank"
      rel="noopener noreferrer"
      onClick={(event) => {
        event.preventDefault();
        event.stopPropagation();
        void openExternal(api, href);
      }}
    >
      {children} <Icon name="external" size={12} />
    </a>
  );
}
