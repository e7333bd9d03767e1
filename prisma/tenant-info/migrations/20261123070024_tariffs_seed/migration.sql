-- AlterTable
ALTER TABLE "Tariff" ADD COLUMN     "position" INTEGER NOT NULL DEFAULT 0;


-- Reference data: the tariffs and the modules (with their functions) each one unlocks. The gateway
-- allows a request when the module of its path is in the tenant's tariff. Texts here are English;
-- the service translates them by id (src/i18n/<lang>/tenantInfo.json) and falls back to these.
INSERT INTO "Tariff" ("id", "name", "description", "position") VALUES
  ('starter', 'Starter', 'Contact management: people, companies and touchpoints', 1),
  ('professional', 'Professional', 'Contact management and event management', 2),
  ('complete', 'Complete', 'Contact management, event management, bookings, invitations and tickets', 3);

INSERT INTO "TariffModule" ("tariffId", "module", "name", "functions")
SELECT t."id", m."module", m."name", m."functions"
FROM "Tariff" t
JOIN (VALUES
  ('crm', 'CRM', ARRAY['people', 'business-cards', 'relations', 'touchpoints', 'people-settings',
    'profile-images', 'documents', 'merge', 'contact-extraction', 'companies', 'managed-by',
    'company-settings']),
  ('events', 'Event management', ARRAY['events', 'event-settings', 'event-files', 'websites',
    'contact-person-templates', 'integrations']),
  ('bookings', 'Bookings and tickets', ARRAY['ticket-types', 'bookings', 'invitations',
    'event-tickets', 'check-in', 'imports-exports']),
  ('tenant-info', 'Tenant information', ARRAY['tenant-info', 'tariff', 'subscription'])
) AS m("module", "name", "functions") ON
  (t."id" = 'starter' AND m."module" IN ('crm', 'tenant-info'))
  OR (t."id" = 'professional' AND m."module" IN ('crm', 'events', 'tenant-info'))
  OR t."id" = 'complete';
