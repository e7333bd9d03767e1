import { applyDecorators } from '@nestjs/common';
import { Field } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { AppException } from '@crm/errors';
import type { SortField } from './sort';

/**
 * Keyset paging: a cursor names the last item of a page by its sort key values (and the id that
 * breaks ties), so the next page starts right after it with an index range scan instead of
 * counting past every earlier row as OFFSET does.
 *
 * The cursor is opaque to clients: base64url of `{"v":1,"s":"lastname,-dateCreated,id","k":[...]}`,
 * `s` the sort it belongs to (tie breaker included), `k` one value per sort field: text, a
 * timestamp as ISO 8601 in UTC, or null. It is not signed: it only holds values the client has
 * already seen, and a forged one can only point at another place of the same tenant's list.
 */

const VERSION = 1;
export const MAX_CURSOR_LENGTH = 4096;

/** What a sort field's cursor value is: text, a timestamp or a UUID, and whether it may be null. */
export interface CursorFieldKind {
  type: 'text' | 'timestamp' | 'uuid';
  nullable: boolean;
}

export type CursorValue = string | null;

/** `after`: the cursor of the item before the wanted page (metaData.nextCursor of that page). */
export const AfterParam = (
  description = 'Cursor: the page after the item it names (nextCursor of the page before, in REST metaData.nextCursor). Not together with page; only with the sort it was made for.',
) =>
  applyDecorators(
    ApiPropertyOptional({ description, maxLength: MAX_CURSOR_LENGTH }),
    Field({ nullable: true, description }),
    IsOptional(),
    IsString(),
    MaxLength(MAX_CURSOR_LENGTH),
  );

/** The sort a cursor belongs to, as written in it: `lastname,-dateCreated,id`. */
export const sortKey = (sort: SortField[]) =>
  sort.map((s) => (s.direction === 'desc' ? `-${s.field}` : s.field)).join(',');

/** A value of a record as the cursor holds it (timestamps as ISO 8601 UTC). */
export const cursorValue = (v: string | Date | null | undefined): CursorValue =>
  v instanceof Date ? v.toISOString() : (v ?? null);

export function encodeCursor(sort: SortField[], values: CursorValue[]): string {
  return Buffer.from(JSON.stringify({ v: VERSION, s: sortKey(sort), k: values })).toString(
    'base64url',
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function validValue(v: unknown, kind: CursorFieldKind): boolean {
  if (v === null) return kind.nullable;
  if (typeof v !== 'string') return false;
  if (kind.type === 'uuid') return UUID.test(v);
  if (kind.type === 'timestamp') return ISO_UTC.test(v) && !Number.isNaN(Date.parse(v));
  return true;
}

const invalid = () => AppException.invalidField('after', 'invalidCursor');

/**
 * The sort key values `after` holds for `sort`. A 400 on `after`: `invalidCursor` when it is not
 * a cursor of this list (malformed, or a value of the wrong type), `cursorSortMismatch` when it
 * was made for another sort.
 */
export function decodeCursor<F extends string>(
  after: string,
  sort: SortField<F>[],
  kinds: Record<F, CursorFieldKind>,
): CursorValue[] {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(after)) throw invalid();
    parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const c = parsed as { v?: unknown; s?: unknown; k?: unknown };
  if (typeof c !== 'object' || c === null || c.v !== VERSION || typeof c.s !== 'string')
    throw invalid();
  const expected = sortKey(sort);
  if (c.s !== expected) {
    throw AppException.invalidField('after', 'cursorSortMismatch', {
      cursorSort: c.s.slice(0, 200),
      sort: expected,
    });
  }
  const values = c.k;
  if (
    !Array.isArray(values) ||
    values.length !== sort.length ||
    !sort.every((s, i) => validValue(values[i], kinds[s.field]))
  )
    throw invalid();
  return values as CursorValue[];
}

/**
 * The cursor of a list query: `after` (blank is none). `page` counts from the start, `after` from
 * an item: both together are a 400 on `after`.
 */
export function afterOf(query: {
  page?: number | null;
  after?: string | null;
}): string | undefined {
  const after = query.after?.trim() || undefined;
  if (after !== undefined && query.page != null)
    throw AppException.invalidField('after', 'cursorWithPage');
  return after;
}
