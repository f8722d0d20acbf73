import { describe, expect, it } from 'vitest';
import { extractMentions, isBroadcast, mentionsName, unmentionableName } from '../../../../src/main/domain/messages/mentions';

describe('finding mentions', () => {
  it('finds @handles at the start of the text and after non-word characters', () => {
    expect(extractMentions('@Juniper please look')).toEqual(['Juniper']);
    expect(extractMentions('ping (@Cedar), [@Maple_Ridge] and\n@ada-2')).toEqual(['Cedar', 'Maple_Ridge', 'ada-2']);
    expect(extractMentions('paths like @org/team:lead.x work')).toEqual(['org/team:lead.x']);
  });

  it('ignores @ inside a word, such as an e-mail address', () => {
    expect(extractMentions('mail ada@example.com or x_@Cedar')).toEqual([]);
  });

  it("leaves a person's team name user@host alone, and reads @user@host as one mention of that person (issue 35)", () => {
    expect(extractMentions('Hi root@vm!')).toEqual([]);
    expect(extractMentions('Thanks @root@vm, merged.')).toEqual(['root@vm']);
    expect(extractMentions('@ada@laptop.')).toEqual(['ada@laptop.', 'ada@laptop']);
  });

  it('also offers a handle without trailing sentence punctuation', () => {
    expect(extractMentions('Thanks @Cedar.')).toEqual(['Cedar.', 'Cedar']);
    expect(extractMentions('@Cedar: can you check?')).toEqual(['Cedar:', 'Cedar']);
  });

  it('skips inline code and fenced code blocks', () => {
    const text = [
      'Use `@Juniper` carefully, or ``code with ` and @Cedar`` here, but @Maple counts.',
      '```ts',
      'const x = "@Hidden";',
      '```',
      '~~~',
      '@AlsoHidden',
      '~~~',
      'after the fence @Visible',
    ].join('\n');
    expect(extractMentions(text)).toEqual(['Maple', 'Visible']);
  });

  it('treats an unclosed fence as code to the end', () => {
    expect(extractMentions('@Before\n```\n@Inside')).toEqual(['Before']);
  });

  it('lists each handle once', () => {
    expect(extractMentions('@a @a @b')).toEqual(['a', 'b']);
  });
});

describe('what a mention means', () => {
  it.each(['@all', '@here', '@everyone', '@agents', '@ALL', 'hey @Everyone.'])('%s is a broadcast', (text) => {
    expect(isBroadcast(extractMentions(text))).toBe(true);
  });

  it('other handles are not broadcasts', () => {
    expect(isBroadcast(extractMentions('@allison @hereford'))).toBe(false);
  });

  it('names are compared after handle normalisation', () => {
    expect(mentionsName(extractMentions('hi @mapleridge'), 'MapleRidge')).toBe(true);
    expect(mentionsName(extractMentions('hi @Maple'), 'Maple Ridge')).toBe(false);
    expect(mentionsName(extractMentions('hi @mapleridge'), 'Maple Ridge')).toBe(true);
    expect(mentionsName(extractMentions('hi @Cedar.'), 'Cedar')).toBe(true);
    expect(mentionsName(extractMentions('hi @x'), '!!!')).toBe(false);
  });
});

describe('names people can mention', () => {
  it('refuses a managed agent name with an @, which would read as a person', () => {
    expect(unmentionableName('root@vm')).toContain('cannot be mentioned');
    expect(unmentionableName('Juniper')).toBeNull();
  });
});
