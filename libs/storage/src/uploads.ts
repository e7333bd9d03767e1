// The HTTP upload and file-name helpers alone, for a service that keeps no files
// (bookings-invitations reads CSV uploads and names PDF downloads): the library's main entry
// also loads sharp and the AWS SDK, some 30 MB of its image for code it never runs.
export * from './http/upload.interceptor';
export * from './http/file-name';
