import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { AiService } from './ai.service';
import { ContactExtraction } from './dto/contact-extraction.dto';
import { ContactExtractionInput } from './dto/contact-extraction.input';

@ApiTags('Ai')
@Controller('ai')
export class AiController {
  constructor(private readonly ai: AiService) {}

  @Post('contact-extraction')
  @HttpCode(200)
  @ApiOperation({
    summary: 'P24 Extract a person and a business card from free text',
    description:
      'Reads names, title, salutation, company, positions and departments, e-mails, phones ' +
      '(E.164; mobile/landline/fax from labels or the number plan; national numbers in the ' +
      'country the text names, else DE) and postal addresses (DE, AT, CH, NL, UK, US notations) ' +
      'from an e-mail signature or a whole e-mail (quoted replies are ignored). Rules only: ' +
      'deterministic, nothing is stored, no outside service. Confidence 0..1 per field.',
  })
  @ApiEnvelope(ContactExtraction)
  extract(@Ctx() ctx: RequestContext, @Body() body: ContactExtractionInput): ContactExtraction {
    return this.ai.extractContact(ctx, body);
  }
}
