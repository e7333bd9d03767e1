import { Injectable } from '@nestjs/common';
import type { MailAttachment } from './mail-outbox';

export interface RenderedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/**
 * Thrown by a renderer when what it renders is gone for good (the booking was deleted): the mail
 * is marked `failed` at once instead of being retried for days.
 */
export class AttachmentGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttachmentGoneError';
  }
}

type Renderer<K extends MailAttachment['kind']> = (
  tenantId: string,
  attachment: Extract<MailAttachment, { kind: K }>,
  language: string,
) => Promise<RenderedAttachment | null>;

type AnyRenderer = (
  t: string,
  a: MailAttachment,
  language: string,
) => Promise<RenderedAttachment | null>;

/**
 * Who renders which attachment of a queued mail: the invoices domain registers `invoice`, the
 * credit notes domain `credit-note`, the event tickets domain `ticket` (each in its module's onModuleInit). The mail worker asks here
 * when it sends, so no PDF is rendered inside a booking's transaction.
 */
@Injectable()
export class MailAttachments {
  private readonly renderers = new Map<string, AnyRenderer>();

  register<K extends MailAttachment['kind']>(kind: K, render: Renderer<K>): void {
    this.renderers.set(kind, render as unknown as AnyRenderer);
  }

  /** The file, or null when there is nothing to attach (the mail goes without it). */
  render(
    tenantId: string,
    attachment: MailAttachment,
    language: string,
  ): Promise<RenderedAttachment | null> {
    const render = this.renderers.get(attachment.kind) as
      Renderer<typeof attachment.kind> | undefined;
    if (!render) throw new Error(`no renderer for mail attachment ${attachment.kind}`);
    return (render as AnyRenderer)(tenantId, attachment, language);
  }
}
