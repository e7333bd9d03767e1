import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsUUID, ValidateIf } from 'class-validator';

/** P14 body: the new lifecycle (an entry of the lifecycle list); null clears it. */
export class UpdateLifecycleInput {
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  @ValidateIf((o: UpdateLifecycleInput) => o.lifecycleId !== null)
  @IsDefined()
  @IsUUID()
  lifecycleId!: string | null;
}
