// A round avatar: the GitHub picture when there is one, else initials on a stable colour.
import { hueIndex, initials } from '../lib/names';

export function Avatar({ name, imageUrl, size = 28, kind = 'agent' }: { name: string; imageUrl?: string | null; size?: number; kind?: 'agent' | 'person' | 'system' }) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38) };
  if (imageUrl) return <img className="avatar" src={imageUrl} alt="" width={size} height={size} style={style} />;
  const className = kind === 'system' ? 'avatar avatar-system' : `avatar hue-${hueIndex(name)}${kind === 'person' ? ' avatar-person' : ''}`;
  return (
    <span className={className} style={style} aria-hidden="true">
      {kind === 'system' ? 'L' : initials(name)}
    </span>
  );
}
