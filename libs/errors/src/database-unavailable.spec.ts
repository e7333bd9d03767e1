import { HttpException } from '@nestjs/common';
import { isDatabaseUnavailable } from './database-unavailable';
import { toAppException } from './all-exceptions.filter';

/** A Prisma 7 error as @prisma/adapter-pg reports it (shapes recorded against PostgreSQL 15). */
const prisma = (code: string, cause: Record<string, unknown>) =>
  Object.assign(new Error('Invalid `prisma.person.findFirst()` invocation'), {
    code,
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause } },
  });
const pgError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['server down (transaction)', prisma('P1001', { kind: 'DatabaseNotReachable' })],
    ['server down (raw query)', prisma('P2010', { kind: 'DatabaseNotReachable', port: 1 })],
    ['connection reset', prisma('P2010', { kind: 'ConnectionClosed' })],
    ['socket timeout', prisma('P2010', { kind: 'SocketTimeout' })],
    ['too many connections', prisma('P2010', { kind: 'TooManyConnections' })],
    [
      'backend terminated mid-query (57P01)',
      prisma('P2010', { kind: 'postgres', originalCode: '57P01' }),
    ],
    [
      'crash of another backend (57P02)',
      prisma('P2010', { kind: 'postgres', originalCode: '57P02' }),
    ],
    ['in recovery mode (57P03)', prisma('P2010', { kind: 'postgres', originalCode: '57P03' })],
    ['connection failure (08006)', prisma('P2010', { kind: 'postgres', originalCode: '08006' })],
    ['server closed the connection', Object.assign(new Error('closed'), { code: 'P1017' })],
    ['pool timeout', Object.assign(new Error('timed out'), { code: 'P2024' })],
    [
      'transaction not started within maxWait',
      Object.assign(new Error('Unable to start a transaction in the given time.'), {
        code: 'P2028',
      }),
    ],
    ['pg: in recovery mode', pgError('57P03', 'the database system is in recovery mode')],
    ['pg: lost mid-query', new Error('Connection terminated unexpectedly')],
    [
      'pg: a transaction whose connection broke',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    ['pg: no connection in time (queued)', new Error('timeout exceeded when trying to connect')],
    [
      'pg: a new connection the server never answered',
      new Error('Connection terminated due to connection timeout'),
    ],
    [
      'socket refused',
      Object.assign(new Error('refused'), { code: 'ECONNREFUSED', syscall: 'connect' }),
    ],
  ])('%s: yes', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['unique violation', prisma('P2002', { kind: 'UniqueConstraintViolation' })],
    ['raw unique violation', prisma('P2010', { kind: 'postgres', originalCode: '23505' })],
    ['record not found', Object.assign(new Error('not found'), { code: 'P2025' })],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['serialization failure', pgError('40001', 'could not serialize access')],
    ['a string', 'Connection terminated unexpectedly'],
    ['null', null],
  ])('%s: no', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});

describe('toAppException of a database outage', () => {
  it('is 503 SERVICE_UNAVAILABLE, logged as one warning line for the whole outage', () => {
    const warn = jest.fn();
    const error = jest.fn();
    for (let i = 0; i < 5; i++) {
      const err = toAppException(prisma('P1001', { kind: 'DatabaseNotReachable' }), {
        warn,
        error,
      } as never);
      expect(err.status).toBe(503);
      expect(err.messageKey).toBe('errors.dependency.databaseUnavailable');
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/^database unavailable: /);
    expect(error).not.toHaveBeenCalled();
  });

  it('leaves HTTP errors alone', () => {
    expect(toAppException(new HttpException('x', 404)).status).toBe(404);
  });
});
