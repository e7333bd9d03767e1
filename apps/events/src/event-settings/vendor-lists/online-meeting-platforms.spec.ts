import { isMeetingPlatformId, ONLINE_MEETING_PLATFORMS } from './online-meeting-platforms';

describe('online meeting platforms', () => {
  it('has the platforms asked for, by id', () => {
    expect(ONLINE_MEETING_PLATFORMS.map((p) => p.id)).toEqual([
      'zoom',
      'microsoft-teams',
      'google-meet',
      'webex',
      'gotomeeting',
      'jitsi-meet',
      'bigbluebutton',
      'other',
    ]);
    expect(isMeetingPlatformId('webex')).toBe(true);
    expect(isMeetingPlatformId('Webex')).toBe(false);
    expect(isMeetingPlatformId(undefined)).toBe(false);
  });
});
