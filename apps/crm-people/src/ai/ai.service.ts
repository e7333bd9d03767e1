import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@crm/request-context';
import { ContactExtraction } from './dto/contact-extraction.dto';
import type { ContactExtractionInput } from './dto/contact-extraction.input';
import { extractContact } from './extraction/contact-extractor';

/** P24: rules only, nothing stored, no outside service. */
@Injectable()
export class AiService {
  extractContact(ctx: RequestContext, input: ContactExtractionInput): ContactExtraction {
    return extractContact(input.text, ctx.language);
  }
}
