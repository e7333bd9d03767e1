// Texts shared by the OpenAPI descriptions of the contact-data routes.

export const FAVORITE_RULE =
  'Favorite rule (addresses, phones and e-mails alike): a company has exactly one favorite per ' +
  'list while the list is not empty. An item written with isFavorite true becomes the favorite ' +
  'and the previous one loses it; when none is marked (the first item added, the favorite ' +
  'unmarked with isFavorite false, or deleted), the first item of the list becomes the favorite.';

export const NOT_FOUND = {
  company: 'The company is unknown or belongs to another tenant',
  item: 'The company, or the item of this company, is unknown or belongs to another tenant',
};
