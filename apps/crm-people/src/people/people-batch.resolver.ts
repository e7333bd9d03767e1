import { Args, ID, Mutation, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { UpdatePersonItemInput } from './dto/people-batch.input';
import { PeopleDeleted, PersonValidationResult } from './dto/people-results.dto';
import { Person } from './dto/person.dto';
import { CreatePersonInput } from './dto/person.input';
import { PeopleBatchCreateService } from './people-batch-create.service';
import { PeopleDeleteService } from './people-delete.service';
import { PeopleUpdateService } from './people-update.service';
import { PeopleValidateService } from './people-validate.service';

// List arguments are typed unknown[] (and the validate input as a record) so the global pipe
// leaves them to the services, which check every item and report it by index.
@Resolver(() => Person)
export class PeopleBatchResolver {
  constructor(
    private readonly creates: PeopleBatchCreateService,
    private readonly updates: PeopleUpdateService,
    private readonly deletes: PeopleDeleteService,
    private readonly validation: PeopleValidateService,
  ) {}

  @Mutation(() => [Person], {
    description: 'P9 Create several people (at most 1000, all or nothing)',
  })
  createPeople(
    @Ctx() ctx: RequestContext,
    @Args('inputs', { type: () => [CreatePersonInput] }) inputs: unknown[],
  ) {
    return this.creates.createMany(ctx, inputs);
  }

  @Mutation(() => [Person], {
    description: 'P8 Update several people (at most 1000, all or nothing)',
  })
  updatePeople(
    @Ctx() ctx: RequestContext,
    @Args('inputs', { type: () => [UpdatePersonItemInput] }) inputs: unknown[],
  ) {
    return this.updates.updateMany(ctx, inputs);
  }

  @Mutation(() => PeopleDeleted, {
    description: 'P10 Delete several people (at most 1000, all or nothing)',
  })
  deletePeople(@Ctx() ctx: RequestContext, @Args('ids', { type: () => [ID] }) ids: unknown[]) {
    return this.deletes.deleteMany(ctx, ids);
  }

  @Mutation(() => PersonValidationResult, { description: 'P15 Validate a person without writing' })
  validatePerson(
    @Ctx() ctx: RequestContext,
    @Args('input', { type: () => CreatePersonInput }) input: Record<string, unknown>,
  ) {
    return this.validation.validate(ctx, input);
  }
}
