// What the launcher prints once everything answers: where things are and how to call them.

/** Lines of the closing summary. `demo` is absent when the gateway or tenant-info did not start. */
export function readyBanner({
  gatewayUrl,
  services,
  database,
  natsUrl,
  mailbox,
  demo,
  adminToken,
}) {
  const rows = [];
  const row = (label, value) => rows.push([label, value]);
  if (gatewayUrl) {
    row('Gateway', gatewayUrl);
    row('API docs', `${gatewayUrl}/docs`);
    row('GraphQL', `${gatewayUrl}/graphql`);
  }
  for (const [app, url] of Object.entries(services)) row(app, url);
  row('PostgreSQL', database);
  row('NATS', natsUrl);
  // The development mailbox: every mail the services send, readable on a page.
  if (mailbox) row('Mails', `${mailbox.pageUrl}  (SMTP ${mailbox.smtpUrl})`);
  if (demo) {
    row('Tenant id', demo.tenantId);
    row('API key', demo.apiKey);
  }
  row('Admin token', `${adminToken}  (npm run admin -- --help)`);
  // One column for the values, two spaces after the longest label (a service name may be long:
  // bookings-invitations).
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const lines = ['', 'Ready.', ...rows.map(([label, value]) => `  ${label.padEnd(width)}${value}`)];
  if (demo && gatewayUrl) {
    lines.push('', '  Try it:');
    lines.push(`    curl -s ${gatewayUrl}/v1/crm/tenant-info \\`);
    lines.push(`      -H 'Authorization: Bearer ${demo.apiKey}' \\`);
    lines.push(`      -H 'X-Service-TenantId: ${demo.tenantId}' \\`);
    lines.push(`      -H 'X-Integration-Name: curl' -H 'X-Integration-Provider: local'`);
  }
  lines.push('', 'Press Ctrl-C to stop everything.');
  return lines;
}
