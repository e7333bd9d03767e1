import pg from 'pg';
import { EventTestKit, errorsOf } from './test/event-test-kit';

// E1 over REST and GraphQL: filters, overlap, text search, paging and sort; a page costs two
// queries on the event tables whatever its size (no N+1).

let t: EventTestKit;
const ids: Record<string, string> = {};
let site: string;
let category: string;

beforeAll(async () => {
  t = await EventTestKit.start('events_it_list');
  site = await t.website();
  category = await t.entry('EVENT_CATEGORIES', 'Concerts');
  const tag = await t.entry('ORGA_TAGS', 'VIP');
  const portal = await t.entry('PORTAL_TAGS', 'Family');
  const mk = async (key: string, body: Record<string, unknown>) => {
    ids[key] = (await t.event({ venue: { city: 'Berlin' }, ...body })).id;
  };
  await mk('jan', {
    title: 'January gala',
    startsAt: '2027-01-10T18:00:00Z',
    endsAt: '2027-01-10T22:00:00Z',
    categoryId: category,
    orgaTags: [{ id: tag }],
    portalTags: [{ id: portal }],
  });
  await mk('feb', {
    title: 'February fair',
    subtitle: 'Trade 50%_off',
    startsAt: '2027-02-01T08:00:00Z',
    endsAt: '2027-02-03T18:00:00Z',
  });
  await mk('mar', {
    title: 'March market',
    startsAt: '2027-03-05T09:00:00Z',
    endsAt: '2027-03-05T17:00:00Z',
    categoryId: category,
  });
  await mk('none', { title: 'Undated draft' });
  await t.event(
    { title: 'January gala', startsAt: '2027-01-10T18:00:00Z', endsAt: '2027-01-10T22:00:00Z' },
    t.B,
  );
  const pub = await t.call('PUT', `/events/${ids.mar}/publication`, {
    published: true,
    websiteIds: [site],
  });
  if (pub.status !== 200) throw new Error(pub.text);
}, 60000);
afterAll(async () => {
  await t?.close();
});

const titles = (body: { data: { title: string }[] }) => body.data.map((e) => e.title);

describe('E1 GET /events', () => {
  it('lists the tenant’s events by start (undated last), with total and paging', async () => {
    const res = await t.call('GET', '/events');
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual([
      'January gala',
      'February fair',
      'March market',
      'Undated draft',
    ]);
    expect(res.body.metaData.totalResults).toBe(4);
    expect(res.body.data[0]).toMatchObject({
      orgaTags: [{ text: 'VIP' }],
      portalTags: [{ text: 'Family' }],
    });
    const page = await t.call('GET', '/events?pageSize=2&page=2&sort=-title');
    expect(titles(page.body)).toEqual(['January gala', 'February fair']);
    expect(page.body.metaData.totalResults).toBe(4);
    expect(titles((await t.call('GET', '/events?sort=-startsAt')).body)[0]).toBe('March market');
    expect(titles((await t.call('GET', '/events?sort=dateCreated')).body)[0]).toBe('January gala');
  });

  it('filters by overlap, category, publication, website and text', async () => {
    const q = async (query: string) => titles((await t.call('GET', `/events?${query}`)).body);
    // the fair runs Feb 1-3: overlaps an interval on Feb 2
    expect(await q('from=2027-02-02T00:00:00Z&to=2027-02-02T12:00:00Z')).toEqual(['February fair']);
    expect(await q('from=2027-02-04T00:00:00Z')).toEqual(['March market']);
    expect(await q('to=2027-01-31T00:00:00Z')).toEqual(['January gala']);
    expect(await q(`categoryId=${category}`)).toEqual(['January gala', 'March market']);
    expect(await q('published=true')).toEqual(['March market']);
    expect(await q('published=false')).toEqual(['January gala', 'February fair', 'Undated draft']);
    expect(await q(`websiteId=${site}`)).toEqual(['March market']);
    expect(await q('q=GALA')).toEqual(['January gala']);
    expect(await q('q=trade')).toEqual(['February fair']);
    expect(await q(`q=${encodeURIComponent('50%_')}`)).toEqual(['February fair']);
    expect(await q(`q=${encodeURIComponent('%')}`)).toEqual(['February fair']);
    expect(await q('q=zzz')).toEqual([]);
  });

  it('refuses bad parameters with 400 naming them', async () => {
    const bad = async (query: string) => errorsOf((await t.call('GET', `/events?${query}`)).body);
    expect(await bad('from=yesterday')).toEqual([['from', 'isIso8601']]);
    expect(await bad('categoryId=x')).toEqual([['categoryId', 'isUuid']]);
    expect(await bad('published=maybe')).toEqual([['published', 'isBoolean']]);
    expect(await bad('sort=capacity')).toEqual([['sort', 'unknownSortField']]);
    expect(await bad('pageSize=501')).toEqual([['pageSize', 'max']]);
  });

  it('reads a page with two queries on the event tables whatever its size', async () => {
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    const eventQueries = () =>
      spy.mock.calls.filter(([q]) =>
        /"Event(Tag|Website)?"/.test(
          typeof q === 'string' ? q : String((q as { text?: string })?.text),
        ),
      ).length;
    try {
      await t.call('GET', '/events?pageSize=1');
      expect(eventQueries()).toBe(2);
      spy.mockClear();
      await t.call('GET', '/events?pageSize=4');
      expect(eventQueries()).toBe(2);
      spy.mockClear();
      const gql = await t.gql(
        `{ events(pageSize: 4) { totalResults items { id title orgaTags { text } websiteIds } } }`,
      );
      expect(gql.body.data.events.totalResults).toBe(4);
      expect(gql.body.data.events.items).toHaveLength(4);
      expect(eventQueries()).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('over GraphQL with the same filters', async () => {
    const res = await t.gql(
      `query($c: ID) { events(categoryId: $c, sort: "-startsAt") { totalResults items { title } } }`,
      { c: category },
    );
    expect(res.body.data.events).toEqual({
      totalResults: 2,
      items: [{ title: 'March market' }, { title: 'January gala' }],
    });
    const other = await t.gql(`{ events { totalResults } }`, {}, t.B);
    expect(other.body.data.events.totalResults).toBe(1);
  });
});
