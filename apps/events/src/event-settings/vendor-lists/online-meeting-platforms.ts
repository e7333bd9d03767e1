/**
 * Vendor list `online-meeting-platforms`: shipped with the service, the same for every tenant,
 * read-only (ES4). An event's online meeting names one by `platformId`. `name` is the product's
 * own name (not translated); `other` is translated (settings.vendorLists.onlineMeetingPlatforms).
 */
export interface OnlineMeetingPlatform {
  id: string;
  /** The product name; null where the name is translated (i18n key by id). */
  name: string | null;
  /** What a meeting link of the platform usually looks like (a hint for forms, not a rule). */
  urlHint: string | null;
}

export const ONLINE_MEETING_PLATFORMS: readonly OnlineMeetingPlatform[] = Object.freeze([
  { id: 'zoom', name: 'Zoom', urlHint: 'https://zoom.us/j/<meeting id>' },
  {
    id: 'microsoft-teams',
    name: 'Microsoft Teams',
    urlHint: 'https://teams.microsoft.com/l/meetup-join/<...>',
  },
  { id: 'google-meet', name: 'Google Meet', urlHint: 'https://meet.google.com/<abc-defg-hij>' },
  { id: 'webex', name: 'Webex', urlHint: 'https://<site>.webex.com/meet/<name>' },
  { id: 'gotomeeting', name: 'GoTo Meeting', urlHint: 'https://meet.goto.com/<meeting id>' },
  { id: 'jitsi-meet', name: 'Jitsi Meet', urlHint: 'https://meet.jit.si/<room>' },
  { id: 'bigbluebutton', name: 'BigBlueButton', urlHint: 'https://<server>/b/<room>' },
  { id: 'other', name: null, urlHint: null },
]);

const BY_ID = new Map(ONLINE_MEETING_PLATFORMS.map((p) => [p.id, p]));

export const isMeetingPlatformId = (id: unknown): boolean =>
  typeof id === 'string' && BY_ID.has(id);

export const meetingPlatform = (id: string): OnlineMeetingPlatform | undefined => BY_ID.get(id);
