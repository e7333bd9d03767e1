import type { ModuleName } from '@crm/messaging';

/** The services behind the gateway (API.md "Routing by first path segment"). */
export const SERVICE_NAMES = [
  'crm-people',
  'crm-companies',
  'events',
  'bookings-invitations',
  'tenant-info',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** First path segment under /v1/crm -> the service that owns it. */
const SEGMENT_SERVICE: Readonly<Record<string, ServiceName>> = {
  people: 'crm-people',
  'business-cards': 'crm-people',
  touchpoints: 'crm-people',
  'people-settings': 'crm-people',
  ai: 'crm-people',
  companies: 'crm-companies',
  'company-settings': 'crm-companies',
  events: 'events',
  'event-settings': 'events',
  websites: 'events',
  integrations: 'events',
  tickets: 'bookings-invitations',
  bookings: 'bookings-invitations',
  invitations: 'bookings-invitations',
  'event-tickets': 'bookings-invitations',
  'tenant-info': 'tenant-info',
};

/** The tariff module a service's operations belong to (REST and GraphQL alike). */
export const SERVICE_MODULE: Readonly<Record<ServiceName, ModuleName>> = {
  'crm-people': 'crm',
  'crm-companies': 'crm',
  events: 'events',
  'bookings-invitations': 'bookings',
  'tenant-info': 'tenant-info',
};

/** Segments whose `<segment>/public/**` operations are marked **public** in API.md (no key). */
const PUBLIC_SEGMENTS = new Set(['websites', 'bookings', 'invitations']);

export interface RestRoute {
  segment: string;
  service: ServiceName;
  module: ModuleName;
  /** Public operations need the tenant headers but no API key. */
  isPublic: boolean;
}

/**
 * Resolves a request path (`/v1/crm/<segment>/...`, query string allowed) to its service;
 * null when no service owns the first segment. Segments are compared as sent (not decoded),
 * as the services' routers match them, so `%70ublic` is not taken for `public`; dot segments
 * are refused because a proxy further on might resolve them to another operation.
 */
export function resolveRestRoute(url: string): RestRoute | null {
  const path = url.split('?')[0];
  if (!path.startsWith('/v1/crm/')) return null;
  const segments = path.slice('/v1/crm/'.length).split('/');
  if (segments.some((s) => s === '.' || s === '..')) return null;
  const [segment, second] = segments;
  if (!segment || !Object.prototype.hasOwnProperty.call(SEGMENT_SERVICE, segment)) return null;
  const service = SEGMENT_SERVICE[segment];
  return {
    segment,
    service,
    module: SERVICE_MODULE[service],
    isPublic: PUBLIC_SEGMENTS.has(segment) && second === 'public',
  };
}
