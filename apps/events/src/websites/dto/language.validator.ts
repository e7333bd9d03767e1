import { ValidationOptions, registerDecorator } from 'class-validator';

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** An ISO 639-1 code (two lower-case letters) that names a language ICU knows. */
export function isLanguage(v: unknown): boolean {
  if (typeof v !== 'string' || !/^[a-z]{2}$/.test(v)) return false;
  try {
    return names.of(v) !== undefined;
  } catch {
    return false;
  }
}

/** Rule `isLanguage` (validation.isLanguage is this app's text). */
export function IsLanguage(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isLanguage',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be an ISO 639-1 language code', ...options },
      validator: { validate: isLanguage },
    });
}
