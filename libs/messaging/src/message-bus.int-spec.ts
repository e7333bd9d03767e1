import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import { AllExceptionsFilter, AppException, createValidationPipe, ErrorCode } from '@crm/errors';
import { CrmI18nModule } from '@crm/i18n';
import { NATS_TEST_URL } from '@crm/testing';
import { CompanyExistsRequest } from './contracts/crm';
import { MessageBus } from './message-bus';
import { MessagingModule } from './messaging.module';
import { natsServerOptions, natsSubscriptionsRegistered } from './nats-options';

// Real NATS: a responder built like every service's (validation pipe + exception filter) and the bus.
const run = randomUUID().slice(0, 8);
const ECHO = `test-${run}.echo.reply`;
const FAIL = `test-${run}.echo.fail`;
const VALIDATED = `test-${run}.echo.validated`;
const REQUEST_TIMEOUT_MS = 3000;

@Controller()
class EchoController {
  @MessagePattern(ECHO)
  echo(@Payload() data: { text: string }) {
    return { text: data.text };
  }

  @MessagePattern(FAIL)
  fail() {
    throw AppException.notFound('Company', 'c-1');
  }

  @MessagePattern(VALIDATED)
  validated(@Payload() data: CompanyExistsRequest) {
    return { ok: data.companyId };
  }
}

@Module({
  imports: [
    CrmI18nModule.forRoot(),
    MessagingModule.forRoot({
      service: 'messaging-test',
      url: NATS_TEST_URL,
      // a reply takes milliseconds, but the CI machine (two jest workers beside stacks of
      // apps) stalled this responder past 400 ms for three requests in a row
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    }),
  ],
  controllers: [EchoController],
  providers: [
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
class EchoModule {}

/** The error a request failed with (the test fails if it succeeded). */
function failure(p: Promise<unknown>): Promise<AppException> {
  return p.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e as AppException,
  );
}

let app: INestMicroservice;
let bus: MessageBus;

beforeAll(async () => {
  const mod = await Test.createTestingModule({ imports: [EchoModule] }).compile();
  app = mod.createNestMicroservice(natsServerOptions(`messaging-test-${run}`, NATS_TEST_URL));
  app.useLogger(false);
  await app.listen();
  await natsSubscriptionsRegistered([app]);
  bus = app.get(MessageBus);
});
afterAll(async () => app?.close());

describe('MessageBus over real NATS', () => {
  it('gets the reply of a request', async () => {
    await expect(bus.request(ECHO, { text: 'hi' })).resolves.toEqual({ text: 'hi' });
  });

  it("re-throws the responder's AppException with its code and arguments", async () => {
    const err = await failure(bus.request(FAIL, {}));
    expect(err).toBeInstanceOf(AppException);
    expect(err).toMatchObject({
      code: ErrorCode.NOT_FOUND,
      args: { resource: 'Company', id: 'c-1' },
    });
  });

  it('refuses an invalid payload on the receiving side with a typed validation error', async () => {
    const err = await failure(bus.request(VALIDATED, { tenantId: 't', companyId: 'not-a-uuid' }));
    expect(err).toBeInstanceOf(AppException);
    expect(err.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(err.problems[0]).toMatchObject({ field: 'companyId', rule: 'isUuid' });
  });

  it('turns silence into a 503 naming the service, after the timeout, never a hang', async () => {
    const started = Date.now();
    const err = await failure(bus.request(`nobody-${run}.things.get`, {}));
    expect(err).toBeInstanceOf(AppException);
    expect(err.code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    expect(err.args.service).toBe(`nobody-${run}`);
    // NATS says at once that nobody listens; a silent responder would take the timeout
    expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS + 5000);
  });
});
