import {
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Res,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RawResponse } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { DeletedFile } from '../documents/dto/person-document.dto';
import {
  FILE_UPLOAD_BODY,
  ReceivedFile,
  UploadedFile,
  sendStoredFile,
  uploadInterceptor,
} from '@crm/storage';
import { ProfileImage } from './dto/profile-image.dto';
import { IMAGE_SIZES } from './image-variants';
import { PROFILE_IMAGE_MAX_BYTES, ProfileImagesService } from './profile-images.service';

@ApiTags('Profile images')
@Controller('people/:id')
export class ProfileImagesController {
  constructor(private readonly images: ProfileImagesService) {}

  @Get('profile-images')
  @ApiOperation({
    summary: 'P16 All sizes of the profile image of a person, with their URLs',
    description: `Sizes: ${IMAGE_SIZES.join(', ')}; an empty list when the person has no image.`,
  })
  @ApiEnvelope(ProfileImage, 200, true)
  list(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<ProfileImage[]> {
    return this.images.list(ctx, id);
  }

  @Post('profile-image')
  @HttpCode(201)
  @UseInterceptors(uploadInterceptor({ maxBytes: PROFILE_IMAGE_MAX_BYTES }))
  @ApiOperation({
    summary: 'P17 Upload a replacement profile image',
    description:
      'multipart/form-data, field `file`: a JPEG, PNG or WebP image (detected from the bytes; ' +
      'anything else 415), at most 5 MB (else 413) and 100 megapixels. Every size is derived as ' +
      'WebP: thumbnail 64x64 and small 160x160 (square crops), detail (longest side 480) and ' +
      'original (longest side at most 2048), upright, without metadata. The previous image is ' +
      'removed once the new one is in place. Answers the new sizes.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(FILE_UPLOAD_BODY)
  @ApiEnvelope(ProfileImage, 201, true)
  @ApiResponse({ status: 413, description: 'Larger than 5 MB or 100 megapixels' })
  @ApiResponse({ status: 415, description: 'Not a JPEG, PNG or WebP image' })
  upload(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @UploadedFile() file: ReceivedFile | undefined,
  ): Promise<ProfileImage[]> {
    return this.images.upload(ctx, id, file);
  }

  @Delete('profile-image')
  @ApiOperation({
    summary: 'P18 Delete the profile image',
    description: '404 when the person has none.',
  })
  @ApiEnvelope(DeletedFile)
  remove(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<DeletedFile> {
    return this.images.remove(ctx, id);
  }

  @Get('profile-image/:size')
  @RawResponse()
  @ApiOperation({
    summary: 'P19 The bytes of one size of the profile image',
    description:
      `size: ${IMAGE_SIZES.join(', ')}. image/webp with an ETag (If-None-Match -> 304) and ` +
      '`Cache-Control: private, no-cache` (the address stays the same when the image is replaced).',
  })
  @ApiProduces('image/webp')
  @ApiResponse({ status: 200, description: 'The image' })
  @ApiResponse({ status: 404, description: 'Unknown person or size, or no image' })
  async image(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('size') size: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<StreamableFile | undefined> {
    return sendStoredFile(res, await this.images.open(ctx, id, size), ifNoneMatch);
  }
}
