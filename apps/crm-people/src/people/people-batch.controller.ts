import { Body, Controller, Delete, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { DeletePeopleInput, UpdatePersonItemInput } from './dto/people-batch.input';
import { PeopleDeleted, PersonValidationResult } from './dto/people-results.dto';
import { Person } from './dto/person.dto';
import { CreatePersonInput } from './dto/person.input';
import { PeopleBatchCreateService } from './people-batch-create.service';
import { PeopleDeleteService } from './people-delete.service';
import { PeopleUpdateService } from './people-update.service';
import { PeopleValidateService } from './people-validate.service';

const BATCH_DOC =
  'At most 1000 items, all or nothing in one transaction. A 400 lists every invalid item by index (`[3].firstname`).';

// List bodies are typed unknown[]: the global pipe skips arrays, the services check every item.
@ApiTags('People')
@Controller('people')
export class PeopleBatchController {
  constructor(
    private readonly creates: PeopleBatchCreateService,
    private readonly updates: PeopleUpdateService,
    private readonly deletes: PeopleDeleteService,
    private readonly validation: PeopleValidateService,
  ) {}

  @Put('batch')
  @ApiOperation({
    summary: 'P8 Update several people',
    description: `Each item is the P5 body plus the id. ${BATCH_DOC} An unknown id is an error of its item.`,
  })
  @ApiBody({ type: [UpdatePersonItemInput] })
  @ApiEnvelope(Person, 200, true)
  updateMany(@Ctx() ctx: RequestContext, @Body() body: unknown[]): Promise<Person[]> {
    return this.updates.updateMany(ctx, body);
  }

  @Post('batch')
  @HttpCode(201)
  @ApiOperation({ summary: 'P9 Create several people', description: BATCH_DOC })
  @ApiBody({ type: [CreatePersonInput] })
  @ApiEnvelope(Person, 201, true)
  createMany(@Ctx() ctx: RequestContext, @Body() body: unknown[]): Promise<Person[]> {
    return this.creates.createMany(ctx, body);
  }

  @Delete('batch')
  @ApiOperation({
    summary: 'P10 Delete several people by ids',
    description: `${BATCH_DOC} Other services are told through one PeopleDeletedEvent.`,
  })
  @ApiEnvelope(PeopleDeleted)
  deleteMany(@Ctx() ctx: RequestContext, @Body() body: DeletePeopleInput): Promise<PeopleDeleted> {
    return this.deletes.deleteMany(ctx, body.ids);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'P15 Validate a person',
    description:
      'Runs every check of P3 without writing. Always 200: data.valid, data.errors [{ field, rule, message }], data.calculated { name, initials }.',
  })
  @ApiBody({ type: CreatePersonInput })
  @ApiEnvelope(PersonValidationResult)
  validate(
    @Ctx() ctx: RequestContext,
    @Body() body: Record<string, unknown>,
  ): Promise<PersonValidationResult> {
    return this.validation.validate(ctx, body);
  }
}
