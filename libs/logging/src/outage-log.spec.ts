import { OutageLog } from './outage-log';

function setup() {
  const lines: string[] = [];
  let now = 0;
  const log = new OutageLog(
    { warn: (m) => lines.push(`WARN ${m}`), log: (m) => lines.push(`LOG ${m}`) },
    { summaryMs: 60_000, quietMs: 60_000, now: () => now },
  );
  return { log, lines, at: (ms: number) => (now = ms) };
}

describe('OutageLog', () => {
  it('writes one line when a dependency goes down, a count a minute, one when it is back', () => {
    const { log, lines, at } = setup();
    for (let s = 0; s < 150; s++) {
      at(s * 1000);
      log.failed('crm-people', 'ECONNREFUSED');
      log.failed('crm-people', 'ECONNREFUSED');
    }
    at(151_000);
    log.succeeded('crm-people');
    log.succeeded('crm-people');
    expect(lines).toEqual([
      'WARN crm-people unavailable: ECONNREFUSED',
      'WARN crm-people still unavailable after 60 s: 120 more calls failed (last: ECONNREFUSED)',
      'WARN crm-people still unavailable after 120 s: 120 more calls failed (last: ECONNREFUSED)',
      'LOG crm-people available again after 151 s; 300 calls failed during the outage',
    ]);
  });

  it('keeps dependencies apart, and a success of one does not end the outage of another', () => {
    const { log, lines } = setup();
    log.failed('events', 'timeout');
    log.succeeded('crm-people');
    log.failed('crm-people', 'ECONNRESET');
    log.succeeded('events');
    expect(lines).toEqual([
      'WARN events unavailable: timeout',
      'WARN crm-people unavailable: ECONNRESET',
      'LOG events available again after 0 s; 1 calls failed during the outage',
    ]);
  });

  it('ends an outage after a quiet minute where no success is seen, and reports the next one', () => {
    const { log, lines, at } = setup();
    at(0);
    log.failed('database', 'connection refused');
    at(10_000);
    log.failed('database', 'connection refused');
    at(200_000);
    log.failed('database', 'too many clients');
    expect(lines).toEqual([
      'WARN database unavailable: connection refused',
      'LOG database available again after 10 s; 2 calls failed during the outage',
      'WARN database unavailable: too many clients',
    ]);
  });
});
