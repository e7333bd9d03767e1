import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { MergePreview, MergeResult } from './dto/merge.dto';
import { MergePeopleInput } from './dto/merge.input';
import { MergeService } from './merge.service';

@Resolver()
export class MergeResolver {
  constructor(private readonly merges: MergeService) {}

  @Mutation(() => MergeResult, { description: 'P20 Merge people into a target' })
  mergePeople(@Ctx() ctx: RequestContext, @Args() args: MergePeopleInput) {
    return this.merges.merge(ctx, args);
  }

  @Query(() => MergePreview, { description: 'P21 What a merge would change (writes nothing)' })
  mergePeoplePreview(@Ctx() ctx: RequestContext, @Args() args: MergePeopleInput) {
    return this.merges.preview(ctx, args);
  }
}
