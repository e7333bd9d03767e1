import { Transform } from 'class-transformer';

/**
 * Texts are stored trimmed; a text of only spaces counts as not given (null: cleared on update,
 * "required" where the field is required).
 */
export const Trimmed = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim() || null : value,
  );
