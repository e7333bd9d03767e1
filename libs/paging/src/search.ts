/** An ILIKE pattern for "contains `q`": `%` and `_` in a search text are meant literally. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
