-- Texts of the settings entries are unique per tenant and list ignoring case. Until now only the
-- per-tenant advisory lock kept them so, as the unique index of the schema is case-sensitive.
-- This index lets tags named by text be created without that lock (INSERT ... ON CONFLICT DO
-- NOTHING), turns a clash of two writers into a unique violation (409 textTaken) instead of two
-- entries, and serves the lookups by text, which compare lower("text").
-- An index on an expression cannot be written in schema.prisma: the model only mentions it.
-- "CompanySettingsEntry_tenantId_list_text_key" stays: it is the @@unique of the model, and Prisma
-- would create it again in the next diff if it were dropped here.
-- No semicolons in these comments: the migrate engine splits the script at every one.
CREATE UNIQUE INDEX "CompanySettingsEntry_tenantId_list_lower_text_key" ON "CompanySettingsEntry" ("tenantId", "list", lower("text"));
