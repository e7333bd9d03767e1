/**
 * Where an invitation mail links to: a page of the portal, which shows the invitation with IN1
 * (`GET /invitations/public/{token}`) and serves `?action=accept` (a booking with the token, BK1)
 * and `?action=reject` (IN2). The REST API itself is no place for a browser: it needs the
 * integration headers, and a GET must not reject.
 */
export const DEFAULT_INVITATION_LINK_TEMPLATE = '{websiteUrl}/invitations/{token}';

/** Longest template accepted (Website.invitationLinkTemplate is VARCHAR(500)). */
export const INVITATION_LINK_TEMPLATE_MAX = 500;

/**
 * The website's invitation link with `{websiteUrl}` filled in (the url without trailing slashes)
 * and `{token}` kept for the invitation's token: what bookings-invitations keeps per website.
 */
export function invitationLinkOf(websiteUrl: string, template: string | null): string {
  return (template ?? DEFAULT_INVITATION_LINK_TEMPLATE)
    .split('{websiteUrl}')
    .join(websiteUrl.trim().replace(/\/+$/, ''));
}

/**
 * The rule a template breaks, or null: it must hold `{token}`, and with `{websiteUrl}` and a
 * token filled in be an absolute http(s) url.
 */
export function invitationLinkRule(
  websiteUrl: string,
  template: string,
): 'invitationLinkToken' | 'invitationLinkUrl' | null {
  if (!template.includes('{token}')) return 'invitationLinkToken';
  const sample = invitationLinkOf(websiteUrl, template).split('{token}').join('t0ken');
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    return 'invitationLinkUrl';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    return 'invitationLinkUrl';
  }
  if (/\s/.test(sample)) return 'invitationLinkUrl';
  return null;
}

/**
 * Where a waiting-list offer mail links to: the portal's page of the entry (`{token}`: the
 * entry's token), which shows it with the public waiting-list read and books the offer with the
 * existing hold confirmation (BK1 with the offer's holdToken). One fixed shape per website.
 */
export function waitingListLinkOf(websiteUrl: string): string {
  return `${websiteUrl.trim().replace(/\/+$/, '')}/waiting-list/{token}`;
}
