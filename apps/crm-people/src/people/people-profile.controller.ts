import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { UpdateLifecycleInput } from './dto/lifecycle-update.input';
import { Person } from './dto/person.dto';
import { EmbeddedPersonalityInput, EmbeddedTagInput } from './dto/person.input';
import { PeopleUpdateService } from './people-update.service';

const TAGS_DOC =
  'The body is the whole new list (at most 200): a tag by id (an entry of the list) or by text (found in any case, else created). [] clears it.';

@ApiTags('People')
@Controller('people')
export class PeopleProfileController {
  constructor(private readonly updates: PeopleUpdateService) {}

  @Put(':id/orga-tags')
  @ApiOperation({ summary: 'P12 Replace the orga tags of a person', description: TAGS_DOC })
  @ApiBody({ type: [EmbeddedTagInput] })
  @ApiEnvelope(Person)
  replaceOrgaTags(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown[],
  ): Promise<Person> {
    return this.updates.replaceTags(ctx, id, 'ORGA', body);
  }

  @Put(':id/personalities')
  @ApiOperation({ summary: 'P13 Replace the personality tags of a person', description: TAGS_DOC })
  @ApiBody({ type: [EmbeddedPersonalityInput] })
  @ApiEnvelope(Person)
  replacePersonalities(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: unknown[],
  ): Promise<Person> {
    return this.updates.replaceTags(ctx, id, 'PERSONALITY', body);
  }

  @Put(':id/lifecycle')
  @ApiOperation({
    summary: 'P14 Update the lifecycle of a person',
    description:
      'A new lifecycle is appended to lifecycleHistories; the current one again changes nothing; null clears it.',
  })
  @ApiEnvelope(Person)
  updateLifecycle(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateLifecycleInput,
  ): Promise<Person> {
    return this.updates.updateLifecycle(ctx, id, body.lifecycleId);
  }
}
