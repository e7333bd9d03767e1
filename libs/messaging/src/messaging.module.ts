import { DynamicModule, Module } from '@nestjs/common';
import { ClientProxyFactory } from '@nestjs/microservices';
import { MESSAGING_OPTIONS, MessageBus, MessagingOptions, NATS_CLIENT } from './message-bus';
import { natsClientOptions } from './nats-options';

@Module({})
export class MessagingModule {
  static forRoot(options: MessagingOptions): DynamicModule {
    return {
      module: MessagingModule,
      global: true,
      providers: [
        { provide: MESSAGING_OPTIONS, useValue: options },
        {
          provide: NATS_CLIENT,
          useFactory: () =>
            ClientProxyFactory.create(natsClientOptions(options.service, options.url)),
        },
        MessageBus,
      ],
      exports: [MessageBus],
    };
  }
}
