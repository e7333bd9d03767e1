import { resolveLanguage } from './language';

describe('resolveLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['de', 'de'],
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['fr-FR,fr;q=0.9', 'en'],
    ['fr;q=0.9,de;q=0.5', 'de'],
    ['en;q=0.2,de;q=0.8', 'de'],
    ['DE-at', 'de'],
  ])('%p -> %p', (header, expected) => {
    expect(resolveLanguage(header)).toBe(expected);
  });
});
