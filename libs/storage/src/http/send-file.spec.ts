import { etagOf, matchesEtag } from './send-file';

describe('ETag handling of file answers', () => {
  const file = { sha256: 'ab'.repeat(32), size: 10, lastModified: new Date(0) };

  it('derives a strong ETag from the hash and a weak one without it', () => {
    expect(etagOf(file)).toBe(`"${'ab'.repeat(16)}"`);
    expect(etagOf({ ...file, sha256: '' })).toBe('W/"a-0"');
  });

  it('matches If-None-Match weakly, in lists and with *', () => {
    const tag = etagOf(file);
    expect(matchesEtag(tag, tag)).toBe(true);
    expect(matchesEtag(`W/${tag}`, tag)).toBe(true);
    expect(matchesEtag(`"other", ${tag}`, tag)).toBe(true);
    expect(matchesEtag('*', tag)).toBe(true);
    expect(matchesEtag('"other"', tag)).toBe(false);
    expect(matchesEtag(undefined, tag)).toBe(false);
  });
});
