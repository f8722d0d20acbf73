// Export a room as Markdown or JSON (downloaded as a file).
import { useState } from 'react';
import type { RoomSummary } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { Icon } from '../../components/Icon';
import { downloadText } from '../../lib/download';
import { roomTitle } from '../../lib/rooms';

export function ExportRoom({ rooms }: { rooms: RoomSummary[] }) {
  const api = useApi();
  const [roomId, setRoomId] = useState(rooms[0]?.id ?? '');
  const [format, setFormat] = useState<'markdown' | 'json'>('markdown');
  const [error, setError] = useState<string | null>(null);
  if (rooms.length === 0) return <p className="muted">No rooms to export yet.</p>;
  const run = async () => {
    try {
      const file = await api.call('rooms.export', { roomId: roomId || rooms[0].id, format });
      downloadText(file.fileName, file.mimeType, file.content);
      setError(null);
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  return (
    <div className="inline-form">
      <select value={roomId} onChange={(e) => setRoomId(e.target.value)} aria-label="Room to export">
        {rooms.map((room) => (
          <option key={room.id} value={room.id}>
            {roomTitle(room)}
          </option>
        ))}
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
