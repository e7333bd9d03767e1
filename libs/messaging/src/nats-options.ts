import { NatsOptions, Transport } from '@nestjs/microservices';
import { queueGroup } from './subjects';

/** Server side of NATS for a service: one queue group per service, reconnecting forever. */
export function natsServerOptions(service: string, url: string): NatsOptions {
  return {
    transport: Transport.NATS,
    options: {
      servers: url.split(','),
      queue: queueGroup(service),
      name: service,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    },
  };
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
