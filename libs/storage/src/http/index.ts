// HTTP side of stored files, shared by the services that take uploads and serve files: upload
// interceptors on @fastify/multipart (in memory or streamed into the FileStorage), file names and Content-Disposition,
// ETag answers, and image sizes derived with sharp. Texts of their errors live in each app's
// catalogue (key prefixes are parameters), so the lib ships none.
export * from './upload.interceptor';
export * from './document-upload.engine';
export * from './file-name';
export * from './send-file';
export * from './image-variants';
