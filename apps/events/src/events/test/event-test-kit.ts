import { runSql, ServiceTestKit } from '@crm/testing';
import { RunningService, startEvents } from '../../test/service-harness';

// The events integration tests' kit: a running events service, tenants A and B, fixtures
// written straight into the database (websites, templates, settings entries: other helpers'
// routes) and events created through E3.

export class EventTestKit extends ServiceTestKit {
  static async start(dbName: string, env?: Record<string, string>): Promise<EventTestKit> {
    return new EventTestKit(await startEvents(dbName, env));
  }

  constructor(svc: RunningService) {
    super(svc);
  }

  sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return runSql<T>(this.svc.databaseUrl, text, params);
  }

  async count(table: string, where = 'true', params: unknown[] = []): Promise<number> {
    const [row] = await this.sql<{ n: string }>(
      `SELECT count(*) AS n FROM "${table}" WHERE ${where}`,
      params,
    );
    return Number(row.n);
  }

  /** Creates an event through E3 and answers it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field
  async event(body: Record<string, unknown>, tenant = this.A): Promise<any> {
    const res = await this.call('POST', '/events', body, tenant);
    if (res.status !== 201) throw new Error(`create event: ${res.status} ${res.text}`);
    return res.body.data;
  }

  /** A website row of `tenant` (the websites routes are another helper's). */
  async website(tenant = this.A, published = true, name = 'Portal'): Promise<string> {
    const key = `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 10)}.example`;
    const [row] = await this.sql<{ id: string }>(
      `INSERT INTO "Website" (id, "tenantId", name, url, "urlKey", published, "dateModified")
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, now()) RETURNING id::text`,
      [tenant, name, `https://${key}/`, key, published],
    );
    return row.id;
  }

  /** A contact person template row of `tenant`. */
  async template(tenant = this.A, fields: Record<string, string> = {}): Promise<string> {
    const [row] = await this.sql<{ id: string }>(
      `INSERT INTO "ContactPersonTemplate" (id, "tenantId", name, salutation, firstname, lastname,
         position, email, phone, "dateModified")
       VALUES (gen_random_uuid(), $1, 'Default', $2, $3, $4, $5, $6, $7, now()) RETURNING id::text`,
      [
        tenant,
        fields.salutation ?? 'Ms',
        fields.firstname ?? 'Erika',
        fields.lastname ?? 'Mustermann',
        fields.position ?? 'Organiser',
        fields.email ?? 'erika@example.com',
        fields.phone ?? '+49 30 1234567',
      ],
    );
    return row.id;
  }

  /** An entry of an event settings list (ORGA_TAGS, PORTAL_TAGS, ...). */
  async entry(list: string, text: string, tenant = this.A): Promise<string> {
    const [row] = await this.sql<{ id: string }>(
      `INSERT INTO "EventSettingsEntry" (id, "tenantId", list, text)
       VALUES (gen_random_uuid(), $1, $2::"EventSettingsList", $3) RETURNING id::text`,
      [tenant, list, text],
    );
    return row.id;
  }

  /** Outbox rows about an event id (in eventId, sourceEventId or eventIds). */
  outbox(id: string) {
    return this.sql<{ subject: string; payload: Record<string, unknown> }>(
      `SELECT subject, payload FROM "OutboxEvent"
       WHERE payload->>'eventId' = $1 OR payload->>'sourceEventId' = $1 OR payload->'eventIds' ? $1
       ORDER BY "dateCreated", id`,
      [id],
    );
  }
}

/** [field, rule] of every error of an answer. */
export const errorsOf = (body: { errors?: { field: string; rule: string }[] }) =>
  (body.errors ?? []).map((e) => [e.field, e.rule]);

/** An instant `days` from now, whole seconds, as ISO with Z. */
export const inDays = (days: number, hourUtc = 18) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
};
