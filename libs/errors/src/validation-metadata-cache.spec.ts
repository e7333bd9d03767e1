import { IsInt, IsString, MaxLength, Min, validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsString()
  @MaxLength(5)
  name!: string;
}

class Derived extends Base {
  @IsInt()
  @Min(1)
  count!: number;
}

const problems = (cls: new () => object, plain: object) =>
  validateSync(plainToInstance(cls, plain), { forbidUnknownValues: false }).map((e) => [
    e.property,
    Object.keys(e.constraints ?? {}).sort(),
  ]);

describe('cacheValidationMetadata', () => {
  it('answers as class-validator does, inherited rules included, also when asked again', () => {
    const bad = { name: 'toolong', count: 0 };
    const before = problems(Derived, bad);
    expect(before).toEqual([
      ['count', ['min']],
      ['name', ['maxLength']],
    ]);
    cacheValidationMetadata();
    cacheValidationMetadata(); // once is enough; twice changes nothing
    expect(problems(Derived, bad)).toEqual(before);
    expect(problems(Derived, bad)).toEqual(before);
    expect(problems(Base, bad)).toEqual([['name', ['maxLength']]]);
  });

  it('a class decorated after the cache was filled is validated with its own rules', () => {
    cacheValidationMetadata();
    expect(problems(Derived, { name: 'ok', count: 2 })).toEqual([]);
    class Later extends Derived {
      @IsString()
      note!: string;
    }
    expect(problems(Later, { name: 'ok', count: 2, note: 3 })).toEqual([['note', ['isString']]]);
    // a rule added to a class already cached counts too
    MaxLength(1)(Derived.prototype, 'name');
    expect(problems(Derived, { name: 'ok', count: 2 })).toEqual([['name', ['maxLength']]]);
  });
});
