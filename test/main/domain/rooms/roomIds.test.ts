import { describe, expect, it } from 'vitest';
import {
  INVITE_CODE_PATTERN,
  checkRoomId,
  classifyRoomName,
  defaultDisplayName,
  generateInviteCode,
  isInviteShaped,
  normalizeGitRemote,
  parseInviteCode,
} from '../../../../src/main/domain/rooms/roomIds';

describe('invite codes', () => {
  it('accepts a code typed with spaces and lower case, and returns it upper-cased', () => {
    expect(parseInviteCode('  abcx-7291 ')).toBe('ABCX-7291');
    expect(parseInviteCode('ABCD-EFGH-1234')).toBe('ABCD-EFGH-1234');
  });

  it.each(['ABCX7291', 'ABC-7291', 'ABCX-729', 'ABCX-72911', 'ABCX_7291', 'ÄBCX-7291', '', 'ABCX-'])(
    'rejects %j with the join-code phrase',
    (code) => {
      expect(() => parseInviteCode(code)).toThrow('Invalid join code. Expected a code like ABCX-7291.');
    },
  );

  it('makes new codes of two groups of four letters or digits', async () => {
    for (let i = 0; i < 200; i++) {
      const code = await generateInviteCode(async () => false);
      expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      expect(code).toMatch(INVITE_CODE_PATTERN);
    }
  });

  it('never hands out a code that is already taken', async () => {
    const taken = new Set<string>();
    let refused = 0;
    const code = await generateInviteCode(async (c) => {
      if (refused < 3) {
        refused++;
        taken.add(c);
        return true;
      }
      return taken.has(c);
    });
    expect(refused).toBe(3);
    expect(taken.has(code)).toBe(false);
  });

  it('uses the whole alphabet rather than a fixed sequence', async () => {
    const seen = new Set(await Promise.all(Array.from({ length: 50 }, () => generateInviteCode(async () => false))));
    expect(seen.size).toBe(50);
  });
});

describe('room id rule', () => {
  it('trims and accepts 1 to 512 characters', () => {
    expect(checkRoomId('  my room ')).toBe('my room');
    expect(checkRoomId('x'.repeat(512))).toHaveLength(512);
    expect(checkRoomId('😀'.repeat(512))).toBe('😀'.repeat(512));
  });

  it.each(['', '   ', 'x'.repeat(513), 'a\u0000b', 'line\nbreak', 'tab\there', 'del\u007f'])(
    'rejects %j with the room id phrase',
    (id) => {
      expect(() => checkRoomId(id)).toThrow('Room id must be 1–512 characters with no control characters.');
    },
  );
});

describe('normalising git remotes', () => {
  it.each([
    ['git@github.com:Owner/Repo.git', 'github.com/owner/repo'],
    ['git@github.com:Owner/Repo', 'github.com/owner/repo'],
    ['ssh://git@github.com/Owner/Repo.git', 'github.com/owner/repo'],
    ['https://github.com/Owner/Repo.git', 'github.com/owner/repo'],
    ['https://github.com/Owner/Repo/', 'github.com/owner/repo'],
    ['https://GitHub.com/Owner/Repo.git/', 'github.com/owner/repo'],
    ['git@GitLab.Example.com:Team/Sub/Project.git', 'gitlab.example.com/Team/Sub/Project'],
    ['https://GitLab.Example.com/Team/Project', 'gitlab.example.com/Team/Project'],
    ['ssh://git@git.example.com:2222/Team/Project.git', 'git.example.com/Team/Project'],
    ['https://user:secret-token@github.com/Owner/Repo.git', 'github.com/owner/repo'],
    ['  https://github.com/Owner/Repo.git  ', 'github.com/owner/repo'],
    ['https://git.example.com/Team/My%20App.git', 'git.example.com/Team/My App'],
    ['https://git.example.com/Team/bad%E0%A4', 'git.example.com/Team/bad%E0%A4'],
  ])('%s -> %s', (url, id) => {
    expect(normalizeGitRemote(url)).toBe(id);
  });

  it('gives up on something that is not a remote with owner and repo', () => {
    expect(normalizeGitRemote('https://github.com/')).toBeNull();
    expect(normalizeGitRemote('https://github.com/owner')).toBeNull();
    expect(normalizeGitRemote('just words')).toBeNull();
    expect(normalizeGitRemote('https://[broken')).toBeNull();
  });
});

describe('classifying a join_room name', () => {
  it('reads an invite-shaped name as an invite code in any case', () => {
    expect(classifyRoomName(' abcx-7291 ')).toEqual({ kind: 'invite', roomId: 'ABCX-7291' });
  });

  it('reads remote URLs and github.com paths as repo rooms', () => {
    expect(classifyRoomName('git@github.com:Owner/Repo.git')).toEqual({ kind: 'repo', roomId: 'github.com/owner/repo' });
    expect(classifyRoomName('GitHub.com/Owner/Repo')).toEqual({ kind: 'repo', roomId: 'github.com/owner/repo' });
    expect(classifyRoomName('github.com/Owner/Repo.git/')).toEqual({ kind: 'repo', roomId: 'github.com/owner/repo' });
    expect(classifyRoomName('https://gitlab.com/Team/App')).toEqual({ kind: 'repo', roomId: 'gitlab.com/Team/App' });
  });

  it('keeps any other name as typed, trimmed', () => {
    expect(classifyRoomName('  Design Review ')).toEqual({ kind: 'named', roomId: 'Design Review' });
    expect(classifyRoomName('gitlab.com/Team/App')).toEqual({ kind: 'named', roomId: 'gitlab.com/Team/App' });
    expect(classifyRoomName('ABCD')).toEqual({ kind: 'named', roomId: 'ABCD' });
    expect(classifyRoomName('ada@home')).toEqual({ kind: 'named', roomId: 'ada@home' });
  });

  it.each(['github.com/acme', 'github.com/', 'GitHub.com', 'https://github.com/acme', 'git@github.com:acme'])(
    'refuses %j, written as a repository that names none, with the expected form (R13)',
    (name) => {
      expect(() => classifyRoomName(name)).toThrow(
        `"${name}" is not a repository room name. A repository room is github.com/<owner>/<repo> (or the repository's git remote URL), e.g. github.com/acme/app.`,
      );
    },
  );

  it('applies the room id rule (R6)', () => {
    expect(() => classifyRoomName('  ')).toThrow('Room id must be 1–512 characters with no control characters.');
    expect(() => classifyRoomName('bad\u0007name')).toThrow('Room id must be 1–512 characters with no control characters.');
  });

  it('names invite rooms "Room <code>" and other rooms by their id', () => {
    expect(defaultDisplayName('invite', 'ABCX-7291')).toBe('Room ABCX-7291');
    expect(defaultDisplayName('repo', 'github.com/o/r')).toBe('github.com/o/r');
    expect(isInviteShaped('abcx-7291')).toBe(true);
  });
});
