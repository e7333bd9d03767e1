import './telemetry';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { listenAddress, loadConfigOrExit } from '@crm/config';
import { closeGracefullyOnSignals } from '@crm/service-kit';
import { SERVICE_NAME } from './app.module';
import { GatewayConfig } from './config';
import { createGatewayApp } from './gateway.app';

async function main() {
  const config = loadConfigOrExit(GatewayConfig);
  const app = await createGatewayApp(config);
  await app.listen(config.PORT, config.HOST);
  // Readiness 503 and Connection: close first, then close (closeGracefullyOnSignals).
  closeGracefullyOnSignals(app, config, SERVICE_NAME);
  new Logger(SERVICE_NAME).log(
    `gateway listening on ${listenAddress(config.HOST, config.PORT)} (NATS ${config.NATS_URL}; supergraph ${
      config.SUPERGRAPH_SOURCE === 'file'
        ? 'from its file'
        : `introspected from ${config.GRAPHQL_SUBGRAPHS.join(', ')}`
    })`,
  );
}

main().catch((err) => {
  console.error(`gateway failed to start: ${err?.stack ?? err}`);
  process.exit(1);
});
