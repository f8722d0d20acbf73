// Export a room as Markdown or JSON (downloaded as a file).
import { useState } from 'react';
import type { RoomSummary } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { Icon } from '../../components/Icon';
import { downloadText } from '../../lib/download';
import { refOf, roomKey } from '../../lib/rooms';
import { RoomOptions } from '../sidebar/RoomItem';

export function ExportRoom({ rooms }: { rooms: RoomSummary[] }) {
  const api = useApi();
  const [key, setKey] = useState('');
  const [format, setFormat] = useState<'markdown' | 'json'>('markdown');
  const [error, setError] = useState<string | null>(null);
  if (rooms.length === 0) return <p className="muted">No rooms to export yet.</p>;
  const run = async () => {
    try {
      const room = rooms.map(refOf).find((r) => roomKey(r) === key) ?? refOf(rooms[0]);
      const file = await api.call('rooms.export', { ...room, format });
      downloadText(file.fileName, file.mimeType, file.content);
      setError(null);
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  return (
    <div className="inline-form">
      <select value={key || roomKey(refOf(rooms[0]))} onChange={(e) => setKey(e.target.value)} aria-label="Room to export">
        <RoomOptions rooms={rooms} />
      </select>
      <select value={format} onChange={(e) => setFormat(e.target.value as 'markdown' | 'json')} aria-label="Format">
        <option value="markdown">Markdown</option>
        <option value="json">JSON</option>
      </select>
      <button type="button" className="btn" onClick={() => void run()}>
        <Icon name="download" size={14} /> Export
      </button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  );
}
