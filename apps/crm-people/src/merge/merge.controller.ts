import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { MergePreview, MergeResult } from './dto/merge.dto';
import { MergePeopleInput } from './dto/merge.input';
import { MergeService } from './merge.service';

@ApiTags('PeopleMerge')
@Controller('people/merge')
export class MergeController {
  constructor(private readonly merges: MergeService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'P20 Merge people into a target',
    description:
      'Moves cards, relations, touchpoints, documents, tags, lifecycle history, important dates ' +
      "and social media to the target, appends the sources' notes (409 when the result would " +
      'exceed 10000 characters), fills empty fields of the target, deletes the sources and ' +
      'tells the other services (PeopleMergedEvent). All or nothing.',
  })
  @ApiEnvelope(MergeResult)
  merge(@Ctx() ctx: RequestContext, @Body() body: MergePeopleInput): Promise<MergeResult> {
    return this.merges.merge(ctx, body);
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'P21 Preview a merge: what would change, nothing is written' })
  @ApiEnvelope(MergePreview)
  preview(@Ctx() ctx: RequestContext, @Body() body: MergePeopleInput): Promise<MergePreview> {
    return this.merges.preview(ctx, body);
  }
}
