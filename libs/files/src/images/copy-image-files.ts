import type { FileStorage } from '@crm/storage';

/** The manifest every stored image keeps beside its sizes. */
export const IMAGE_MANIFEST = 'manifest.json';

/**
 * Copies the files of one stored image (its sizes and its manifest) from folder `from` to folder
 * `to`, the manifest rewritten by `manifest` (it names the image's id or version); files missing
 * at the source are skipped. Used where a record is copied with its images (a duplicated event,
 * a copied template): the copy gets files of its own, so either can lose its image alone.
 */
export async function copyImageFiles(
  storage: FileStorage,
  from: string,
  to: string,
  sizeFiles: readonly string[],
  manifest: (current: Record<string, unknown>) => unknown,
): Promise<void> {
  for (const name of [...sizeFiles, IMAGE_MANIFEST]) {
    const file = await storage.get(`${from}/${name}`);
    if (!file) continue;
    const chunks: Buffer[] = [];
    for await (const c of file.stream) chunks.push(c as Buffer);
    let body = Buffer.concat(chunks);
    if (name === IMAGE_MANIFEST) {
      body = Buffer.from(
        JSON.stringify(manifest(JSON.parse(body.toString('utf8')) as Record<string, unknown>)),
      );
    }
    await storage.put(`${to}/${name}`, body, file.contentType);
  }
}
