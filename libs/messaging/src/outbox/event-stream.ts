import {
  DiscardPolicy,
  JetStreamManager,
  nanos,
  RetentionPolicy,
  StorageType,
  StreamConfig,
} from 'nats';

/**
 * One JetStream stream for every cross-service event of the platform. Events are named
 * `<service>.<aggregate>.<verb>`; the verbs below are the ones other services must act on.
 * A request/reply subject must never end with one of these verbs: the stream would capture it.
 */
export const CRM_EVENTS_STREAM = 'CRM_EVENTS';
export const CRM_EVENT_SUBJECTS = [
  '*.*.deleted',
  '*.*.merged',
  '*.*.migrated',
  // Webhook sources (person.created, event.published): also never a request/reply subject.
  '*.*.created',
  '*.*.published',
  // events' snapshots for bookings-invitations (events.events.changed, .duplicated); the stream
  // also keeps tenant-info.access.changed then, which its core-NATS subscribers do not notice
  '*.*.changed',
  '*.*.duplicated',
  // bookings-invitations' visitor activities (webhooks, touchpoints in crm-people)
  '*.*.cancelled',
  '*.*.accepted',
  '*.*.rejected',
  '*.*.checked-in',
  '*.*.linked',
];

/** Events stay this long, so a consumer that was down for days still catches up. */
const MAX_AGE_MS = 14 * 24 * 3600 * 1000;
/** A message id seen within this window is dropped (a relay that published, then crashed). */
export const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;

export interface EventStreamSpec {
  name: string;
  subjects: string[];
}

export const DEFAULT_EVENT_STREAM: EventStreamSpec = {
  name: CRM_EVENTS_STREAM,
  subjects: CRM_EVENT_SUBJECTS,
};

function isNotFound(err: unknown): boolean {
  return /not found/i.test((err as Error)?.message ?? '');
}

/**
 * Creates the stream, or adds missing subjects to it. Every service runs this at start, so the
 * first one up creates it; the options are the ones nats-server 2.9 accepts (no sync_interval).
 */
export async function ensureEventStream(
  jsm: JetStreamManager,
  spec: EventStreamSpec = DEFAULT_EVENT_STREAM,
): Promise<void> {
  try {
    const info = await jsm.streams.info(spec.name);
    const missing = spec.subjects.filter((s) => !info.config.subjects.includes(s));
    if (missing.length) {
      await jsm.streams.update(spec.name, {
        ...info.config,
        subjects: [...info.config.subjects, ...missing],
      });
    }
    return;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const config: Partial<StreamConfig> = {
    name: spec.name,
    subjects: spec.subjects,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: nanos(MAX_AGE_MS),
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    num_replicas: 1,
  };
  try {
    await jsm.streams.add(config);
  } catch (err) {
    // Another replica or service created it meanwhile: fine when it now exists.
    await jsm.streams.info(spec.name).catch(() => {
      throw err;
    });
  }
}
