import {
  ListItem,
  nextPosition,
  othersOf,
  planFavorite,
  planRemove,
  planWrite,
} from './contact-favorites';

// The one favorite rule of addresses, phones and e-mails.

/** Items a, b, c... at positions 0, 1, 2...; `fav` is the index marked (-1: none). */
const list = (n: number, fav: number): ListItem[] =>
  Array.from({ length: n }, (_, i) => ({
    id: String.fromCharCode(97 + i),
    isFavorite: i === fav,
    position: i,
  }));

describe('planFavorite', () => {
  it('keeps the one favorite: nothing to change', () => {
    expect(planFavorite(list(3, 1))).toEqual({ favoriteId: 'b', demote: [], promote: null });
  });

  it('makes the first item (lowest position, not list order) the favorite when none is marked', () => {
    const items: ListItem[] = [
      { id: 'x', isFavorite: false, position: 5 },
      { id: 'y', isFavorite: false, position: 2 },
    ];
    expect(planFavorite(items)).toEqual({ favoriteId: 'y', demote: [], promote: 'y' });
  });

  it('lets the marked item win and demotes the previous favorite', () => {
    const items = list(3, 0).map((i) => (i.id === 'c' ? { ...i, isFavorite: true } : i));
    expect(planFavorite(items, 'c')).toEqual({ favoriteId: 'c', demote: ['a'], promote: null });
  });

  it('repairs several marks (first stays) and knows no favorite in an empty list', () => {
    const items = list(3, 1).map((i) => ({ ...i, isFavorite: i.id !== 'a' }));
    expect(planFavorite(items)).toEqual({ favoriteId: 'b', demote: ['c'], promote: null });
    expect(planFavorite([])).toEqual({ favoriteId: null, demote: [], promote: null });
  });

  it('ignores a marked id that is not in the list', () => {
    expect(planFavorite(list(2, 1), 'zz')).toEqual({ favoriteId: 'b', demote: [], promote: null });
  });
});

describe('planWrite', () => {
  it('the first item added becomes the favorite, marked or not', () => {
    expect(planWrite([], 'n', undefined)).toEqual({ favoriteId: 'n', demote: [], promote: 'n' });
    expect(planWrite([], 'n', false)).toEqual({ favoriteId: 'n', demote: [], promote: 'n' });
    expect(planWrite([], 'n', true)).toEqual({ favoriteId: 'n', demote: [], promote: null });
  });

  it('a new unmarked item leaves the favorite alone', () => {
    expect(planWrite(list(2, 1), 'n', undefined)).toEqual({
      favoriteId: 'b',
      demote: [],
      promote: null,
    });
  });

  it('a new or updated item marked favorite takes the status from the previous one', () => {
    expect(planWrite(list(2, 0), 'n', true)).toEqual({
      favoriteId: 'n',
      demote: ['a'],
      promote: null,
    });
    expect(planWrite(list(3, 0), 'c', true)).toEqual({
      favoriteId: 'c',
      demote: ['a'],
      promote: null,
    });
    expect(planWrite(list(3, 2), 'c', true)).toEqual({
      favoriteId: 'c',
      demote: [],
      promote: null,
    });
  });

  it('unmarking the favorite hands the status to the first item', () => {
    expect(planWrite(list(3, 2), 'c', false)).toEqual({
      favoriteId: 'a',
      demote: [],
      promote: 'a',
    });
    expect(planWrite(list(3, 2), 'c', null)).toEqual({ favoriteId: 'a', demote: [], promote: 'a' });
  });

  it('unmarking the favorite that is the first item: it stays the favorite', () => {
    expect(planWrite(list(3, 0), 'a', false)).toEqual({
      favoriteId: 'a',
      demote: [],
      promote: 'a',
    });
  });

  it('an update without isFavorite keeps the marks; false on another item changes nothing', () => {
    expect(planWrite(list(3, 1), 'c', undefined)).toEqual({
      favoriteId: 'b',
      demote: [],
      promote: null,
    });
    expect(planWrite(list(3, 1), 'c', false)).toEqual({
      favoriteId: 'b',
      demote: [],
      promote: null,
    });
  });
});

describe('planRemove', () => {
  it('removing the favorite makes the first remaining item the favorite', () => {
    expect(planRemove(list(3, 0), 'a')).toEqual({ favoriteId: 'b', demote: [], promote: 'b' });
    expect(planRemove(list(3, 1), 'b')).toEqual({ favoriteId: 'a', demote: [], promote: 'a' });
  });

  it('removing another item keeps the favorite; removing the last leaves none', () => {
    expect(planRemove(list(3, 2), 'a')).toEqual({ favoriteId: 'c', demote: [], promote: null });
    expect(planRemove(list(1, 0), 'a')).toEqual({ favoriteId: null, demote: [], promote: null });
  });
});

describe('helpers', () => {
  it('puts new items after the last position', () => {
    expect(nextPosition([])).toBe(0);
    expect(nextPosition([{ id: 'a', isFavorite: false, position: 7 }, ...list(2, -1)])).toBe(8);
  });

  it('leaves the written item out of the changes (its flag is written with it)', () => {
    const plan = { favoriteId: 'n', demote: ['a', 'n'], promote: 'n' };
    expect(othersOf(plan, 'n')).toEqual({ favoriteId: 'n', demote: ['a'], promote: null });
    expect(othersOf({ favoriteId: 'a', demote: [], promote: 'a' }, 'c')).toEqual({
      favoriteId: 'a',
      demote: [],
      promote: 'a',
    });
  });
});
