import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';
import { BATCH_MAX } from '@crm/errors';

/** Body of every batch delete: `{ ids: [...] }`, 1 to 1000 UUIDs. */
export class DeleteIdsInput {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: BATCH_MAX })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BATCH_MAX)
  @IsUUID('all', { each: true })
  ids!: string[];
}
