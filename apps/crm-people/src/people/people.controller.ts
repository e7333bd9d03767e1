import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { Person, PeopleNote } from './dto/person.dto';
import { CreatePersonInput } from './dto/person.input';
import { UpdateNoteInput } from './dto/update-note.input';
import { PeopleService } from './people.service';
import { ApiEnvelope } from '@crm/service-kit';

@ApiTags('People')
@Controller('people')
export class PeopleController {
  constructor(private readonly people: PeopleService) {}

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
