import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, ValidateIf } from 'class-validator';

export const NOTE_MAX = 10000;

/** Body of P11. `note` must be present; null clears the note. */
export class UpdateNoteInput {
  @ApiProperty({ type: String, nullable: true, maxLength: NOTE_MAX })
  @ValidateIf((o: UpdateNoteInput) => o.note !== null)
  @IsDefined()
  @IsString()
  @MaxLength(NOTE_MAX)
  note!: string | null;
}
