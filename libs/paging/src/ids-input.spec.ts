import { ArgsType, Field, InputType } from '@nestjs/graphql';
import { IsString } from 'class-validator';
import { checkObject } from '@crm/errors';
import { IdsInput } from './ids-input';

const ID = '0190a1b2-c3d4-7e5f-8a6b-1c2d3e4f5a6b';

class RequiredUuids extends IdsInput({ required: true, each: 'uuid' }) {}
class OptionalStrings extends IdsInput({ required: false, each: 'string' }) {}
class RequiredAny extends IdsInput({ required: true, each: 'any' }) {}

@ArgsType()
class ArgsWithMore extends IdsInput({ required: true, each: 'string' }) {
  @Field()
  @IsString()
  personId!: string;
}

@InputType('IdsInputSpecInput')
class AsInputType extends IdsInput({ required: true, each: 'any' }) {}

const rules = (cls: new () => object, body: unknown) =>
  checkObject(cls, body).problems.map((p) => `${p.field}:${p.rule}`);

describe('IdsInput', () => {
  it('accepts 1 to 1000 ids in every variant', () => {
    for (const cls of [RequiredUuids, OptionalStrings, RequiredAny, AsInputType]) {
      expect(rules(cls, { ids: [ID] })).toEqual([]);
      expect(rules(cls, { ids: Array(1000).fill(ID) })).toEqual([]);
      expect(checkObject(cls, { ids: [ID] }).value).toBeInstanceOf(cls);
    }
  });

  it('refuses an empty, too long or non-list ids and unknown fields in every variant', () => {
    for (const cls of [RequiredUuids, OptionalStrings, RequiredAny]) {
      expect(rules(cls, { ids: [] })).toEqual(['ids:arrayMinSize']);
      expect(rules(cls, { ids: Array(1001).fill(ID) })).toEqual(['ids:arrayMaxSize']);
      expect(rules(cls, { ids: 'abc' })).toEqual(['ids:isArray']);
      expect(rules(cls, { ids: [ID], other: 1 })).toEqual(['other:whitelistValidation']);
    }
  });

  it('names a missing ids by `required`', () => {
    expect(rules(RequiredUuids, {})).toEqual(['ids:isDefined']);
    expect(rules(RequiredAny, { ids: null })).toEqual(['ids:isDefined']);
    expect(rules(OptionalStrings, {})).toEqual(['ids:isString']);
  });

  it('checks each id by `each`: uuid, string or not at all', () => {
    expect(rules(RequiredUuids, { ids: [ID, 'x'] })).toEqual(['ids:isUuid']);
    expect(rules(OptionalStrings, { ids: [ID, 'x'] })).toEqual([]);
    expect(rules(OptionalStrings, { ids: [ID, 5] })).toEqual(['ids:isString']);
    expect(rules(RequiredAny, { ids: [ID, 5, null] })).toEqual([]);
  });

  it('keeps the inherited rules of ids beside the fields a subclass adds', () => {
    expect(Object.getPrototypeOf(RequiredUuids)).not.toBe(Object.getPrototypeOf(RequiredAny));
    expect(rules(ArgsWithMore, { ids: [ID], personId: 'p' })).toEqual([]);
    expect(rules(ArgsWithMore, { ids: [ID, 5] })).toEqual(['personId:isString', 'ids:isString']);
  });
});
