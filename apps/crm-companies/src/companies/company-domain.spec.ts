import { lookupDomain, websiteDomain } from './company-domain';

describe('websiteDomain', () => {
  it.each([
    ['https://www.Example.com/about', 'example.com'],
    ['http://WWW.example.com:8080/x?y=1', 'example.com'],
    ['example.com', 'example.com'],
    ['www.shop.example.co.uk/path', 'shop.example.co.uk'],
    ['https://sub.www.example.com', 'sub.www.example.com'],
    ['https://example.com.', 'example.com'],
  ])('%s -> %s', (website, domain) => {
    expect(websiteDomain(website)).toBe(domain);
  });

  it('is null without a website or a host', () => {
    expect(websiteDomain(null)).toBeNull();
    expect(websiteDomain(undefined)).toBeNull();
    expect(websiteDomain('')).toBeNull();
    expect(websiteDomain('http://')).toBeNull();
  });
});

describe('lookupDomain', () => {
  it.each([
    ['Example.com', 'example.com'],
    ['www.example.com', 'example.com'],
    ['anna@www.Example.com', 'example.com'],
    ['"a@b"@example.com', 'example.com'],
    ['https://www.example.com/about', 'example.com'],
    ['example.com/path', 'example.com'],
    ['müller.example', 'xn--mller-kva.example'],
  ])('%s -> %s', (given, domain) => {
    expect(lookupDomain(given)).toBe(domain);
  });

  it.each(['', '   ', 'not a domain!', 'anna@', 'http://', 'a_b.example', '-bad.example'])(
    'refuses %j',
    (given) => {
      expect(lookupDomain(given)).toBeNull();
    },
  );
});
