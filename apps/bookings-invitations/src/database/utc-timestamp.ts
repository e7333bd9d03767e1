/** A date as the UTC wall-clock text a `timestamp` column holds (Prisma's convention). */
export const utcTimestamp = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');
