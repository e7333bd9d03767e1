// Baseline of scenario 1: a bare node:http server answering what crm-people's GET /health/live does.
export const createHandler = () => async () => [200, { status: 'ok' }];
