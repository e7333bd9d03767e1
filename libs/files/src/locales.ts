import path from 'node:path';

/**
 * The texts of file errors every service with uploads shares, in the `files` namespace:
 * `files.upload.*` (the prefix @crm/storage's upload interceptors use) and `files.image.*` (its
 * image rendering). Pass it to ServiceCoreModule's `localeDirs` before the app's own folder: the
 * catalogues merge per top-level block, so an app that ships its own `image` block (naming the
 * formats it accepts) replaces this one, and its other `files` blocks are added to these.
 */
export const FILES_LOCALES_DIR = path.join(__dirname, 'locales');
