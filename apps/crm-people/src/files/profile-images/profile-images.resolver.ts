import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { DeletedFile } from '../documents/dto/person-document.dto';
import { ProfileImage } from './dto/profile-image.dto';
import { ProfileImagesService } from './profile-images.service';

/** GraphQL reads the image list and deletes the image; the bytes and uploads are REST (P17, P19). */
@Resolver(() => ProfileImage)
export class ProfileImagesResolver {
  constructor(private readonly images: ProfileImagesService) {}

  @Query(() => [ProfileImage], {
    description: 'P16 All sizes of the profile image of a person (empty when it has none)',
  })
  profileImages(
    @Ctx() ctx: RequestContext,
    @Args('personId', { type: () => ID }) personId: string,
  ): Promise<ProfileImage[]> {
    return this.images.list(ctx, personId);
  }

  @Mutation(() => DeletedFile, {
    description: 'P18 Delete the profile image of a person (every size)',
  })
  deleteProfileImage(
    @Ctx() ctx: RequestContext,
    @Args('personId', { type: () => ID }) personId: string,
  ): Promise<DeletedFile> {
    return this.images.remove(ctx, personId);
  }
}
