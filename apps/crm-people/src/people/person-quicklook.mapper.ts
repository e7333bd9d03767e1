import type { EntryView } from '../settings/settings-lookup.service';
import type { PersonQuicklook } from './dto/people-results.dto';
import type { QuicklookRecord } from './people-read.repository';
import { displayName, initials, lifecycle } from './person.mapper';

/** The element marked favorite, else the first one; null for an empty or malformed list. */
export function favorite<T extends object>(value: unknown): T | null {
  if (!Array.isArray(value) || !value.length) return null;
  const list = value as (T & { isFavorite?: unknown })[];
  return list.find((x) => x?.isFavorite === true) ?? list[0] ?? null;
}

/** Ids of settings entries a quicklook shows (only the lifecycle: tags carry their text). */
export const quicklookEntryIds = (r: QuicklookRecord): string[] =>
  r.lifecycleId ? [r.lifecycleId] : [];

/** P7: header fields of the person plus company, position, e-mail and phone of the main card. */
export function toQuicklook(r: QuicklookRecord, entries: Map<string, EntryView>): PersonQuicklook {
  const card = r.cards[0] ?? null;
  const position = favorite<{ position?: string | null; department?: string | null }>(
    card?.businessPositions,
  );
  const email = favorite<{ mail?: string | null }>(card?.emails);
  const phone = favorite<{ number?: string | null }>(card?.phones);
  return {
    id: r.id,
    name: displayName(r),
    initials: initials(r),
    profileImage: r.profileImage,
    detailImagePath: r.profileImage ? `/v1/crm/people/${r.id}/profile-image/detail` : null,
    lifecycle: r.lifecycleId ? lifecycle(r.lifecycleId, r.lifecycleChanged, entries) : null,
    orgaTags: r.tags
      .filter((t) => t.kind === 'ORGA')
      .map((t) => ({ id: t.entryId, text: t.entry.text })),
    personalities: r.tags
      .filter((t) => t.kind === 'PERSONALITY')
      .map((t) => ({ id: t.entryId, text: t.entry.text, category: t.entry.category })),
    cardId: card?.id ?? null,
    companyId: card?.companyId ?? null,
    business: card?.business ?? null,
    position: position?.position ?? null,
    department: position?.department ?? null,
    email: email?.mail ?? null,
    phone: phone?.number ?? null,
  };
}
