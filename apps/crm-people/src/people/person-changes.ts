import type {
  CreatePersonInput,
  EmbeddedPersonalityInput,
  EmbeddedTagInput,
  ImportantDateInput,
  SocialMediaInput,
} from './dto/person.input';

// Input -> stored values, shared by create (P3, P9) and update (P5, P8, P12-P14). Pure functions.

/** `1985-04-12` (or a date-time) -> the date at midnight UTC, as the `date` column stores it. */
export const birthdayDate = (value: string | null | undefined): Date | null =>
  value ? new Date(`${value.slice(0, 10)}T00:00:00Z`) : null;

export const importantDates = (list: ImportantDateInput[] | null | undefined) =>
  (list ?? []).map((d) => ({
    text: d.text ?? null,
    date: d.date ? new Date(d.date).toISOString() : null,
  }));

export const socialMedias = (list: SocialMediaInput[] | null | undefined) =>
  (list ?? []).map((s) => ({ type: s.type ?? null, link: s.link ?? null }));

/** Scalar columns of a person written by create and update (no audit, lifecycle or tags). */
export interface NewPersonScalars {
  salutation: string | null;
  title: string | null;
  firstname: string | null;
  lastname: string | null;
  birthday: Date | null;
  considerBirthYear: boolean | null;
  importantDates: { text: string | null; date: string | null }[];
  socialMedias: { type: string | null; link: string | null }[];
  customerNumber: string | null;
  employeeStatus: string | null;
  employeeNumber: string | null;
}

export type PersonScalars = Partial<NewPersonScalars>;

/** What an update changes. `undefined` leaves a part as it is. */
export interface PersonChanges {
  scalars: PersonScalars;
  /** New lifecycle id, or null to clear it. */
  lifecycleId?: string | null;
  /** Replaces the orga tags ([] clears them). */
  orgaTags?: EmbeddedTagInput[];
  /** Replaces the personality tags ([] clears them). */
  personalities?: EmbeddedPersonalityInput[];
}

const TEXT_FIELDS = [
  'salutation',
  'title',
  'firstname',
  'lastname',
  'customerNumber',
  'employeeStatus',
  'employeeNumber',
] as const;

/**
 * The changes an update body asks for: a field that is absent stays unchanged, null clears it.
 * Inside `birthday` and `lifecycle` the same holds per sub-field; null for the object clears all.
 */
export function personChanges(input: CreatePersonInput): PersonChanges {
  const scalars: PersonScalars = {};
  for (const f of TEXT_FIELDS) if (input[f] !== undefined) scalars[f] = input[f];
  if (input.birthday === null) {
    scalars.birthday = null;
    scalars.considerBirthYear = null;
  } else if (input.birthday) {
    if (input.birthday.birthday !== undefined)
      scalars.birthday = birthdayDate(input.birthday.birthday);
    if (input.birthday.considerBirthYear !== undefined)
      scalars.considerBirthYear = input.birthday.considerBirthYear;
  }
  if (input.importantDates !== undefined)
    scalars.importantDates = importantDates(input.importantDates);
  if (input.socialMedias !== undefined) scalars.socialMedias = socialMedias(input.socialMedias);

  const changes: PersonChanges = { scalars };
  if (input.lifecycle === null) changes.lifecycleId = null;
  else if (input.lifecycle && input.lifecycle.lifecycleId !== undefined)
    changes.lifecycleId = input.lifecycle.lifecycleId;
  if (input.orgaTags !== undefined) changes.orgaTags = input.orgaTags ?? [];
  if (input.personalities !== undefined) changes.personalities = input.personalities ?? [];
  return changes;
}

/** True when the changes touch nothing (an empty body). */
export function isEmpty(c: PersonChanges): boolean {
  return (
    Object.keys(c.scalars).length === 0 &&
    c.lifecycleId === undefined &&
    c.orgaTags === undefined &&
    c.personalities === undefined
  );
}

/** Scalar columns of a new person: absent fields are stored as null. */
export function newPersonScalars(input: CreatePersonInput): NewPersonScalars {
  return {
    salutation: input.salutation ?? null,
    title: input.title ?? null,
    firstname: input.firstname ?? null,
    lastname: input.lastname ?? null,
    birthday: birthdayDate(input.birthday?.birthday),
    considerBirthYear: input.birthday?.considerBirthYear ?? null,
    importantDates: importantDates(input.importantDates),
    socialMedias: socialMedias(input.socialMedias),
    customerNumber: input.customerNumber ?? null,
    employeeStatus: input.employeeStatus ?? null,
    employeeNumber: input.employeeNumber ?? null,
  };
}
