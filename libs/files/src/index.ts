export * from './documents/document-store';
export * from './documents/document-files';
export * from './images/image-store';
export * from './images/image-files';
export * from './images/gallery-store';
export * from './images/image-gallery';
export * from './providers';
export * from './locales';
