import { lookupKey, parseWebsiteUrl } from './website-url';

describe('parseWebsiteUrl', () => {
  it.each([
    ['https://events.example.com/', 'events.example.com'],
    ['http://events.example.com', 'events.example.com'],
    ['HTTPS://Events.EXAMPLE.com///', 'events.example.com'],
    ['https://www.example.com/portal/', 'example.com/portal'],
    ['https://example.com:443/portal', 'example.com/portal'],
    ['http://example.com:80/portal', 'example.com/portal'],
    ['https://example.com:8443/portal', 'example.com:8443/portal'],
    ['http://example.com:443/', 'example.com:443'],
    ['https://example.com/Portal/Events', 'example.com/Portal/Events'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
    ['  https://example.com/a%20b/  ', 'example.com/a%20b'],
  ])('%s -> %s', (raw, key) => {
    expect(parseWebsiteUrl(raw)).toEqual({ key, hasQueryOrFragment: false });
  });

  it.each([
    'ftp://example.com',
    'example.com',
    'https://',
    'javascript:alert(1)',
    'https://u:p@example.com',
    '',
  ])('refuses %p', (raw) => {
    expect(parseWebsiteUrl(raw)).toBeNull();
  });

  it('marks query and fragment, which the lookup ignores', () => {
    expect(parseWebsiteUrl('https://example.com/p?x=1')).toEqual({
      key: 'example.com/p',
      hasQueryOrFragment: true,
    });
    expect(parseWebsiteUrl('https://example.com/p#top')?.hasQueryOrFragment).toBe(true);
    expect(parseWebsiteUrl('https://example.com/p?')?.hasQueryOrFragment).toBe(true);
    expect(lookupKey('https://www.Example.com/p/?utm=1#x')).toBe('example.com/p');
  });
});
