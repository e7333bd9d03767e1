import { INVITATION_STATUSES } from './dto/invitation.input';
import { csvSafe } from './invitation-export';
import { eventDate, linkTemplateOf, publicLink } from './invitation-mail-text';
import { newToken, STATUS_TRANSITIONS } from './invitations.service';

describe('invitation rules', () => {
  it('makes tokens of 128 random bits, base64url, never the same', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newToken));
    expect(tokens.size).toBe(1000);
    for (const t of [...tokens].slice(0, 10)) {
      expect(t).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(t, 'base64url')).toHaveLength(16);
    }
  });

  it('never lets the organiser set or leave the invitee’s answers', () => {
    for (const from of INVITATION_STATUSES) {
      expect(STATUS_TRANSITIONS[from]).not.toContain('accepted');
      expect(STATUS_TRANSITIONS[from]).not.toContain('rejected');
    }
    expect(STATUS_TRANSITIONS.accepted).toEqual([]);
    expect(STATUS_TRANSITIONS.rejected).toEqual([]);
    expect(STATUS_TRANSITIONS.withdrawn).toEqual(['created']);
  });

  it('writes the link with the token and the date in the event’s zone and the invitee’s language', () => {
    expect(publicLink('https://x.org/i/{token}?a=1', 'ab-_')).toBe('https://x.org/i/ab-_?a=1');
    const event = {
      eventId: 'e',
      title: 'T',
      startsAt: new Date('2030-01-15T17:30:00Z'),
      timeZone: 'America/New_York',
      websiteLinks: null,
    };
    expect(eventDate(event, 'en')).toContain('12:30');
    expect(eventDate(event, 'de')).toContain('15. Januar 2030');
    expect(eventDate({ ...event, timeZone: 'Not/AZone' }, 'en')).toContain('5:30');
    expect(eventDate({ ...event, startsAt: null }, 'en')).toBe('-');
  });

  it('links an invitation to its website’s portal page, else to its event’s, the configured address only for an event without one', () => {
    const W = '11111111-1111-4111-8111-111111111111';
    const V = '22222222-2222-4222-8222-222222222222';
    const links = { [W]: 'https://portal.example/invitations/{token}' };
    const fallback = 'https://api.example/v1/crm/invitations/public/{token}';
    expect(linkTemplateOf({ websiteId: W.toUpperCase() }, links, fallback)).toBe(links[W]);
    // without a website of its own (an import): the event's one website
    expect(linkTemplateOf({ websiteId: null }, links, fallback)).toBe(links[W]);
    // a website the event's copy does not know (no longer the event's): the event's
    expect(linkTemplateOf({ websiteId: V }, links, fallback)).toBe(links[W]);
    // several: the invitation's own, else the lowest id, whatever the order of the copy
    const two = { [V]: 'https://second.example/i/{token}', [W.toUpperCase()]: links[W] };
    expect(linkTemplateOf({ websiteId: V }, two, fallback)).toBe(two[V]);
    expect(linkTemplateOf({ websiteId: null }, two, fallback)).toBe(links[W]);
    expect(linkTemplateOf({ websiteId: null }, { [V]: two[V], [W]: links[W] }, fallback)).toBe(
      links[W],
    );
    // the event has no (usable) website: the configured address
    expect(linkTemplateOf({ websiteId: W }, null, fallback)).toBe(fallback);
    expect(linkTemplateOf({ websiteId: null }, {}, fallback)).toBe(fallback);
    expect(linkTemplateOf({ websiteId: W }, { [W]: 42 }, fallback)).toBe(fallback);
    expect(
      linkTemplateOf({ websiteId: null }, { [W]: 'https://x.example/no-token' }, fallback),
    ).toBe(fallback);
    // nor a configured address (PUBLIC_INVITATION_URL empty): no page at all
    expect(linkTemplateOf({ websiteId: W }, null, '')).toBeNull();
    expect(linkTemplateOf({ websiteId: null }, { [W]: 42 }, '')).toBeNull();
  });

  it('keeps spreadsheet formulas out of the CSV export', () => {
    expect(['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', 'Anna', 'a-b@x.de'].map(csvSafe)).toEqual([
      `'=HYPERLINK("x")`,
      "'+1",
      "'-2",
      "'@SUM(A1)",
      'Anna',
      'a-b@x.de',
    ]);
  });
});
