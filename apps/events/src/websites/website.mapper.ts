import type { Website as WebsiteRow } from '../generated/prisma/client';
import type { WebsiteConfigInput } from './dto/website.input';
import type { Website, WebsiteConfig, WebsiteText } from './dto/website.output';
import { invitationLinkOf } from './invitation-link';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The stored config (JSON) in its full shape: every field present, unknown keys dropped. */
export function toWebsiteConfig(raw: unknown): WebsiteConfig {
  const c = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const texts = Array.isArray(c.texts) ? (c.texts as Record<string, unknown>[]) : [];
  return {
    primaryColor: str(c.primaryColor),
    secondaryColor: str(c.secondaryColor),
    logoImageId: str(c.logoImageId),
    imprintUrl: str(c.imprintUrl),
    privacyUrl: str(c.privacyUrl),
    termsUrl: str(c.termsUrl),
    contactEmail: str(c.contactEmail),
    texts: texts
      .filter((t) => t && typeof t === 'object' && str(t.language) && str(t.title))
      .map((t): WebsiteText => ({
        language: t.language as string,
        title: t.title as string,
        intro: str(t.intro),
      })),
  };
}

const trimmed = (v: string | null | undefined) => (v == null ? null : v.trim() || null);

/** What is stored of a validated config input: trimmed texts, empty ones as null. */
export function configColumn(input: WebsiteConfigInput | null | undefined): WebsiteConfig {
  return {
    primaryColor: trimmed(input?.primaryColor)?.toLowerCase() ?? null,
    secondaryColor: trimmed(input?.secondaryColor)?.toLowerCase() ?? null,
    logoImageId: trimmed(input?.logoImageId)?.toLowerCase() ?? null,
    imprintUrl: trimmed(input?.imprintUrl),
    privacyUrl: trimmed(input?.privacyUrl),
    termsUrl: trimmed(input?.termsUrl),
    contactEmail: trimmed(input?.contactEmail),
    texts: (input?.texts ?? []).map((t) => ({
      language: t.language,
      title: t.title.trim(),
      intro: trimmed(t.intro),
    })),
  };
}

export function toWebsite(row: WebsiteRow): Website {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    urlKey: row.urlKey,
    description: row.description,
    language: row.language,
    config: toWebsiteConfig(row.config),
    invitationLinkTemplate: row.invitationLinkTemplate,
    invitationLink: invitationLinkOf(row.url, row.invitationLinkTemplate),
    published: row.published,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    modifiedBy: row.modifiedBy,
    createdByUserId: row.createdByUserId,
    modifiedByUserId: row.modifiedByUserId,
    dateCreated: row.dateCreated.toISOString(),
    dateModified: row.dateModified.toISOString(),
  };
}
