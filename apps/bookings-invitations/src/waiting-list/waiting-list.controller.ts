import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { MoveWaitingListEntryInput, WaitingListQuery } from './dto/waiting-list.input';
import { WaitingListEntryDetails } from './dto/waiting-list.output';
import { WaitingListService } from './waiting-list.service';

/** WL4-WL6: the organiser's view of the waiting lists (ours). */
@ApiTags('Bookings')
@Controller('bookings')
export class WaitingListController {
  constructor(private readonly lists: WaitingListService) {}

  @Get('events/:eventId/waiting-list')
  @ApiOperation({
    summary: 'WL4 An event’s waiting lists (ours)',
    description:
      'WL4 Every entry of the event’s ticket types (filter `ticketTypeId`), by type and list ' +
      'order, with status and, while waiting, position; ended entries stay listed. Unknown or ' +
      'foreign event: 404.',
  })
  @ApiEnvelope(WaitingListEntryDetails, 200, true)
  list(
    @Ctx() ctx: RequestContext,
    @Param('eventId') eventId: string,
    @Query() query: WaitingListQuery,
  ): Promise<WaitingListEntryDetails[]> {
    return this.lists.list(ctx, eventId, query.ticketTypeId);
  }

  @Delete('waiting-list/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'WL5 Remove a waiting list entry (ours)',
    description:
      'WL5 Takes the entry off its list (status removed); an open offer is given back at once ' +
      '(its seats go to the next entry). Again, or on an entry that ended otherwise: 204; an ' +
      'entry whose offer was booked: 409 entryBooked. Unknown or foreign: 404.',
  })
  @ApiResponse({ status: 204, description: 'Removed' })
  @ApiResponse({ status: 404, description: 'Unknown or foreign entry' })
  @ApiResponse({ status: 409, description: 'The offer was booked' })
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<void> {
    return this.lists.remove(ctx, id);
  }

  @Put('waiting-list/:id/position')
  @ApiOperation({
    summary: 'WL6 Move a waiting list entry (ours)',
    description:
      'WL6 Puts a waiting entry at `position` (1-based) among its type’s waiting entries, the ' +
      'others keeping their order; past the end: the last. An entry not waiting (offered, ' +
      'ended): 409 entryNotWaiting. Unknown or foreign: 404.',
  })
  @ApiEnvelope(WaitingListEntryDetails)
  @ApiResponse({ status: 404, description: 'Unknown or foreign entry' })
  @ApiResponse({ status: 409, description: 'The entry is not waiting' })
  move(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: MoveWaitingListEntryInput,
  ): Promise<WaitingListEntryDetails> {
    return this.lists.move(ctx, id, body.position);
  }
}
