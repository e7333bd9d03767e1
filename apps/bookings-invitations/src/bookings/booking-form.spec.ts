import { checkAnswers } from './booking-form';

const rules = (fields: unknown, answers: unknown) =>
  checkAnswers(fields, answers).map((p) => `${p.field}/${p.rule}`);

describe('checkAnswers (BK1 booking form)', () => {
  const form = [
    { key: 'name', type: 'text', required: true },
    { key: 'bio', type: 'textarea' },
    { key: 'mail', type: 'email' },
    { key: 'phone', type: 'phone' },
    { key: 'n', type: 'number' },
    { key: 'day', type: 'date' },
    { key: 'size', type: 'select', options: ['S', { value: 'M', label: 'Medium' }] },
    { key: 'ok', type: 'checkbox', required: true },
  ];

  it('accepts answers of the right types', () => {
    expect(
      rules(form, {
        name: 'A',
        bio: 'x'.repeat(5000),
        mail: 'a@b.de',
        phone: '+49 (30) 123-45',
        n: 1.5,
        day: '2024-02-29',
        size: 'M',
        ok: true,
      }),
    ).toEqual([]);
  });

  it('names each wrong answer', () => {
    expect(
      rules(form, {
        name: '',
        bio: 3,
        mail: 'a@b',
        phone: 'call me',
        n: Infinity,
        day: '2023-02-29',
        size: 'XL',
        ok: false,
        other: 1,
      }),
    ).toEqual([
      'answers.other/unknownAnswer',
      'answers.name/answerRequired',
      'answers.bio/answerType',
      'answers.mail/answerType',
      'answers.phone/answerType',
      'answers.n/answerType',
      'answers.day/answerType',
      'answers.size/answerOption',
      'answers.ok/answerRequired',
    ]);
    expect(rules(form, { name: 'x'.repeat(1001), ok: true })).toEqual([
      'answers.name/answerTooLong',
    ]);
  });

  it('without a form, answers must be empty or absent; answers must be an object', () => {
    expect(rules(null, undefined)).toEqual([]);
    expect(rules(null, {})).toEqual([]);
    expect(rules(null, { a: 1 })).toEqual(['answers.a/unknownAnswer']);
    expect(rules(form, [1])).toEqual(['answers/isObject']);
    // an own key named like a prototype property is just an unknown key
    expect(rules([], JSON.parse('{"toString": 1}'))).toEqual(['answers.toString/unknownAnswer']);
  });
});
