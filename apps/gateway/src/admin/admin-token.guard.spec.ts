import type { ExecutionContext } from '@nestjs/common';
import { AppException } from '@crm/errors';
import type { GatewayConfig } from '../config';
import { AdminTokenGuard, sameToken } from './admin-token.guard';

const contextWith = (authorization?: string) =>
  ({
    switchToHttp: () => ({ getRequest: () => ({ headers: { authorization } }) }),
  }) as unknown as ExecutionContext;

describe('AdminTokenGuard', () => {
  const token = 'the-operator-token-0123';
  const guard = new AdminTokenGuard({ ADMIN_TOKEN: token } as GatewayConfig);

  it('lets the administrator token pass', () => {
    expect(guard.canActivate(contextWith(`Bearer ${token}`))).toBe(true);
  });

  it.each([undefined, '', token, `Basic ${token}`, `Bearer ${token}x`, `Bearer ${token.slice(1)}`])(
    '401 for %p',
    (authorization) => {
      expect(() => guard.canActivate(contextWith(authorization))).toThrow(AppException);
      try {
        guard.canActivate(contextWith(authorization));
      } catch (err) {
        expect((err as AppException).messageKey).toBe('errors.auth.adminTokenInvalid');
        expect((err as AppException).status).toBe(401);
      }
    },
  );

  it('compares whole tokens of any length', () => {
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abc', 'abcd')).toBe(false);
    expect(sameToken('', 'abc')).toBe(false);
  });
});
