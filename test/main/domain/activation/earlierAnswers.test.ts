// The earlier answers an agent's @all turn comes with (issue 34 item 2), the one rule the wait,
// the managed prompt and the channel push share: the answers that came before the turn, from
// every other agent (one that answered before its own turn too), oldest first, bounded.
import { describe, expect, it } from 'vitest';
import { EARLIER_ANSWER_CHARS, MAX_EARLIER_ANSWERS, earlierAnswers } from '../../../../src/main/domain/activation/earlierAnswers';

const answer = (number: number, name: string, text = `answer of ${name}`) => ({
  number,
  publisher_agent_key: `key_${name.toLowerCase()}`,
  sender: `${name} | Ada's agent | Claude Code`,
  text,
});

describe('the earlier answers of an @all turn', () => {
  it("are every other agent's answer, oldest first, whatever its place in the order", () => {
    // Aspen answered before its own turn came (out of order), then Cedar in its turn: Birch gets both.
    const answers = [answer(14, 'Cedar'), answer(12, 'Aspen')];
    expect(earlierAnswers(answers, 'key_birch')).toEqual([
      { number: 12, from: 'Aspen', text: 'answer of Aspen' },
      { number: 14, from: 'Cedar', text: 'answer of Cedar' },
    ]);
  });

  it("leave out the agent's own answer", () => {
    expect(earlierAnswers([answer(12, 'Aspen'), answer(14, 'Cedar')], 'key_aspen').map((a) => a.from)).toEqual(['Cedar']);
  });

  it('are the name the agent answered under; a label that is not an agent label as it is', () => {
    expect(earlierAnswers([{ ...answer(12, 'Aspen'), sender: 'Aspen' }], 'key_birch')[0].from).toBe('Aspen');
  });

  it(`cut each answer to ${EARLIER_ANSWER_CHARS} characters (marked), never splitting a character, and keep ${MAX_EARLIER_ANSWERS} at most`, () => {
    const long = `${'x'.repeat(EARLIER_ANSWER_CHARS - 1)}🙂🙂 and more`;
    const [cut] = earlierAnswers([answer(12, 'Aspen', long)], 'key_birch');
    expect(cut.text).toBe(`${'x'.repeat(EARLIER_ANSWER_CHARS - 1)}🙂…`);
    const exact = 'y'.repeat(EARLIER_ANSWER_CHARS);
    expect(earlierAnswers([answer(12, 'Aspen', exact)], 'key_birch')[0].text).toBe(exact);
    const many = Array.from({ length: MAX_EARLIER_ANSWERS + 3 }, (_, i) => answer(20 + i, `Agent${i}`));
    const kept = earlierAnswers(many, 'key_birch');
    expect(kept.map((a) => a.number)).toEqual(many.slice(0, MAX_EARLIER_ANSWERS).map((a) => a.number));
  });

  it('are none when nobody answered', () => {
    expect(earlierAnswers([], 'key_birch')).toEqual([]);
  });
});
