import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { PeopleDeleted } from './dto/people-results.dto';
import { Person, PeopleNote } from './dto/person.dto';
import { CreatePersonInput } from './dto/person.input';
import { UpdateNoteInput } from './dto/update-note.input';
import { PeopleDeleteService } from './people-delete.service';
import { PeopleUpdateService } from './people-update.service';
import { PeopleService } from './people.service';

// Registered after the controllers with fixed paths (/people/batch, /people/filter), so that
// those are not taken for an id.
@ApiTags('People')
@Controller('people')
export class PeopleController {
  constructor(
    private readonly people: PeopleService,
    private readonly updates: PeopleUpdateService,
    private readonly deletes: PeopleDeleteService,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'P3 Create a person' })
  @ApiEnvelope(Person, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: CreatePersonInput): Promise<Person> {
    return this.people.create(ctx, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'P4 Details of a person' })
  @ApiEnvelope(Person)
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<Person> {
    return this.people.get(ctx, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'P5 Update a person',
    description:
      'Same body as P3. A field that is absent stays unchanged, null clears it (also inside birthday and lifecycle); a list given replaces the list. A new lifecycle is appended to lifecycleHistories.',
  })
  @ApiEnvelope(Person)
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: CreatePersonInput,
  ): Promise<Person> {
    return this.updates.update(ctx, id, body);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'P6 Delete a person',
    description:
      'Deletes the person with cards, note, tags, relations (both directions) and touchpoint participations; other services are told through a PeopleDeletedEvent.',
  })
  @ApiEnvelope(PeopleDeleted)
  delete(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<PeopleDeleted> {
    return this.deletes.delete(ctx, id);
  }

  @Put(':id/notes')
  @ApiOperation({ summary: 'P11 Update the note of a person (null clears it)' })
  @ApiEnvelope(PeopleNote)
  updateNote(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateNoteInput,
  ): Promise<PeopleNote> {
    return this.people.updateNote(ctx, id, body.note);
  }
}
