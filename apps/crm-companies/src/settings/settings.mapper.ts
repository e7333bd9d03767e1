import type { Prisma } from '../generated/prisma/client';
import type { CompanySettingsEntry } from './dto/settings-entry.output';

export const ENTRY_ROW = {
  id: true,
  text: true,
  color: true,
  category: true,
  position: true,
} as const satisfies Prisma.CompanySettingsEntrySelect;

export type EntryRow = Prisma.CompanySettingsEntryGetPayload<{ select: typeof ENTRY_ROW }>;

/** A tenant entry as the API shows it. */
export function toSettingsEntry(row: EntryRow): CompanySettingsEntry {
  return {
    id: row.id,
    text: row.text,
    color: row.color,
    category: row.category,
    position: row.position,
    isSystem: false,
  };
}

/** A system entry (texts already translated) as the API shows it. */
export function toSystemSettingsEntry(
  id: string,
  text: string,
  color: string | undefined,
): CompanySettingsEntry {
  return { id, text, color: color ?? null, category: null, position: null, isSystem: true };
}
