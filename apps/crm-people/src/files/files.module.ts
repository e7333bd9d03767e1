import { Module } from '@nestjs/common';

/** Profile images (P16-P19) and documents (P22, P23). */
@Module({})
export class FilesModule {}
