// Shown in a browser tab opened without its access key (the #token=… part of the link).
export function NoAccess() {
  return (
    <main className="no-access">
      <div className="home-card">
        <span className="home-mark" aria-hidden="true">
          L
        </span>
        <h1>Open LetAgents from its link</h1>
        <p className="home-lead">
          This page needs the link that <code>letagents-desktop serve</code> printed. It carries a one-time access key, so other pages on this computer cannot
          read your rooms.
        </p>
      </div>
    </main>
  );
}
