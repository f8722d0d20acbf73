// Turns a keychain library failure into a reason and a fix the person can act on,
// per platform (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows).

export interface KeychainProblem {
  reason: string;
  fix: string;
}

const LINUX_FIX =
  'Install and unlock gnome-keyring or KWallet (any Secret Service provider) in your desktop session, then try again. ' +
  "Without a desktop, run the app inside a D-Bus session with an unlocked keyring, e.g. dbus-run-session -- sh -c 'echo -n <password> | gnome-keyring-daemon --unlock --components=secrets; letagents-desktop serve'.";

/** Why the Secret Service could not be used, in words rather than D-Bus error names. */
function linuxReason(detail: string): string {
  const text = detail.toLowerCase();
  if (/dbus_session_bus_address|autolaunch|failed to connect to socket|no such file or directory|connection refused/.test(text)) {
    return 'no Secret Service: no D-Bus session bus is reachable';
  }
  if (/serviceunknown|org\.freedesktop\.secrets|not provided by any/.test(text)) {
    return 'no Secret Service: nothing provides org.freedesktop.secrets (is gnome-keyring or KWallet installed?)';
  }
  if (/locked|no result found|prompt|dismissed|no default collection/.test(text)) {
    return 'no Secret Service: the keyring is locked or has no default collection';
  }
  return 'no Secret Service';
}

/** The library's own words, only where ours say nothing more, and never a wall of D-Bus text. */
function shortDetail(detail: string): string {
  const text = detail.trim();
  if (!text) return '';
  return ` (${text.length > 100 ? `${text.slice(0, 99)}…` : text})`;
}

/** The reason and fix for a keychain failure on `platform`; `detail` is the library's message. */
export function keychainProblem(platform: NodeJS.Platform, detail: string): KeychainProblem {
  const said = shortDetail(detail);
  switch (platform) {
    case 'linux':
    case 'freebsd': {
      // A recognised cause says it all; the D-Bus detail behind it helps no one.
      const reason = linuxReason(detail);
      return { reason: reason === 'no Secret Service' ? `${reason}${said}` : reason, fix: LINUX_FIX };
    }
    case 'darwin':
      return {
        reason: `the macOS Keychain refused access${said}`,
        fix: 'Unlock your login keychain in Keychain Access (or run `security unlock-keychain`), allow LetAgents when asked, then try again.',
      };
    case 'win32':
      return {
        reason: `Windows Credential Manager is not accessible${said}`,
        fix: 'Run LetAgents as a signed-in Windows user whose profile has Credential Manager (not a service or restricted account), then try again.',
      };
    default:
      return {
        reason: `no supported keychain on ${platform}${said}`,
        fix: 'Run LetAgents on Linux with a Secret Service (gnome-keyring or KWallet), on macOS or on Windows.',
      };
  }
}

/** The keychain library itself failed to load (no prebuilt binary for this machine). */
export function keychainLibraryProblem(platform: NodeJS.Platform, arch: string, detail: string): KeychainProblem {
  return {
    reason: `the keychain library could not load on ${platform}-${arch} (${detail.trim()})`,
    fix: 'Reinstall LetAgents for this platform; @napi-rs/keyring ships prebuilt binaries for macOS, Windows and Linux (x64, arm64).',
  };
}
