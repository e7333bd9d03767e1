import { invitationLinkOf, waitingListLinkOf } from './invitation-link';

describe('portal links of a website', () => {
  it('the waiting-list page is {websiteUrl}/waiting-list/{token}, trailing slashes dropped', () => {
    expect(waitingListLinkOf('https://portal.example.org/')).toBe(
      'https://portal.example.org/waiting-list/{token}',
    );
    expect(waitingListLinkOf(' https://portal.example.org/events// ')).toBe(
      'https://portal.example.org/events/waiting-list/{token}',
    );
  });

  it('beside the invitation link of the same website', () => {
    expect(invitationLinkOf('https://portal.example.org/', null)).toBe(
      'https://portal.example.org/invitations/{token}',
    );
  });
});
