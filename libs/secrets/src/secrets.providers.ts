import type { Provider } from '@nestjs/common';
import { SERVICE_CONFIG } from '@crm/service-kit';
import { SecretBox } from './secret-box';
import { secretsKeyText } from './secrets-key';

/** SecretBox from the service's SECRETS_KEY (validated by SecretsKeyRule at start). */
export const secretBoxProvider: Provider = {
  provide: SecretBox,
  inject: [SERVICE_CONFIG],
  useFactory: (config: { SECRETS_KEY?: string }) => SecretBox.fromText(secretsKeyText(config)),
};
