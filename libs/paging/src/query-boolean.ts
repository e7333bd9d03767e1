/**
 * `@Transform(queryBoolean)` on a boolean query parameter: the strings `true` and `false` become
 * booleans; anything else stays as sent, so `@IsBoolean()` refuses it with a 400 naming the field
 * (`?force=yes` is not silently false).
 */
export const queryBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;
