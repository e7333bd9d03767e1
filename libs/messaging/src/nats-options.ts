import { Logger } from '@nestjs/common';
import {
  CustomStrategy,
  NatsContext,
  NatsOptions,
  ServerNats,
  Transport,
} from '@nestjs/microservices';
import type { MsgHdrs, NatsConnection } from 'nats';
import { asTenant } from '@crm/request-context';
import { inMessageContext, TENANT_HEADER } from './message-context';
import { queueGroup } from './subjects';

/**
 * Server side of NATS for a service: one queue group per service, reconnecting forever. Every
 * message handler (@MessagePattern, @EventPattern) runs as part of the request that sent the
 * message: its lines carry the X-Request-Id of the message's headers, and with tracing on it is a
 * server span `process <subject>` in the caller's trace. Done here, once for every service, and
 * not by a global interceptor, which would run for every HTTP request too.
 */
export function natsServerOptions(service: string, url: string): CustomStrategy {
  const server = new ServerNats({
    servers: url.split(','),
    queue: queueGroup(service),
    name: service,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  const logger = new Logger('NatsServer');
  server.setOnProcessingStartHook((_transport, context, handle) => {
    const ctx = context as NatsContext;
    const subject = ctx.getSubject();
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': subject };
    const started = performance.now();
    // the handler's promise: it ends when the handler has answered (no interceptor defers it)
    const headers = ctx.getHeaders() as MsgHdrs | undefined;
    const run = async () => {
      await handle();
      // what an HTTP request's line is, at debug: a call makes several of these
      logger.debug(`${subject} handled in ${Math.round(performance.now() - started)} ms`);
    };
    // The handler's queries see the rows of the tenant the message is for (MessageBus names it
    // from the payload), none without one.
    const tenant = headers?.get(TENANT_HEADER);
    return inMessageContext(
      { name: `process ${subject}`, kind: 'server', attributes },
      headers,
      tenant ? () => asTenant(tenant, run) : run,
    );
  });
  return { strategy: server };
}

/** Client side of NATS (requests and events). */
export function natsClientOptions(service: string, url: string): NatsOptions {
  return {
    transport: Transport.NATS,
    options: {
      servers: url.split(','),
      name: `${service}-client`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    },
  };
}

/**
 * Waits until the NATS server has registered the subscriptions of `microservices` (each
 * connection's PING answered: the server handles a connection's commands in order). `listen`
 * resolves once the SUBs are written, not processed: a request made at once by another
 * connection could still find no responder (seen: a 503 in a test, on a busy machine).
 */
export async function natsSubscriptionsRegistered(
  microservices: readonly { unwrap<T>(): T }[],
): Promise<void> {
  await Promise.all(microservices.map((ms) => ms.unwrap<NatsConnection>().flush()));
}
