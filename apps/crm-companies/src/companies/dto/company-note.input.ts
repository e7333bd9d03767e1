import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';

export const NOTE_MAX = 10000;

/** C9 body. `note` must be present; null clears the note. */
export class UpdateCompanyNoteInput {
  @ApiProperty({ type: String, nullable: true, maxLength: NOTE_MAX })
  @ValidateIf((o: UpdateCompanyNoteInput) => o.note !== null)
  @IsDefined()
  @IsString()
  @MaxLength(NOTE_MAX)
  note!: string | null;
}

/** C11 body: the new lifecycle (an entry of the lifecycles list); null clears it. */
export class UpdateCompanyLifecycleInput {
  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  @ValidateIf((o: UpdateCompanyLifecycleInput) => o.lifecycleId !== null)
  @IsDefined()
  @IsUUID()
  lifecycleId!: string | null;
}
