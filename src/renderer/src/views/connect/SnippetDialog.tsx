// "Copy config": the exact snippet for setting a tool up by hand, with where it goes.
import type { ConfigSnippet } from '../../../../shared/types';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';

export function SnippetDialog({ label, snippet, onClose }: { label: string; snippet: ConfigSnippet; onClose: () => void }) {
  return (
    <Dialog title={`Set up ${label} by hand`} onClose={onClose} wide footer={<CopyButton text={snippet.text} label="Copy config" className="btn btn-primary" />}>
      <p className="dialog-lead">{snippet.instructions}</p>
      <pre className="code-block" tabIndex={0}>
        <code>{snippet.text}</code>
      </pre>
      <p className="muted">It runs the LetAgents helper and holds no secret.</p>
    </Dialog>
  );
}
