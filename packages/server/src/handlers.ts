import type { Logger } from 'pino';
import type { BlobStore } from './blobs/blob-store.ts';
import type { Config } from './config.ts';
import type { Database } from './database/database.ts';
import type { Handlers } from './http/handlers.ts';
import { ApiKeyService } from './identity/api-key-service.ts';
import { ApiKeyStore } from './identity/api-key-store.ts';
import { Authenticator } from './identity/authenticator.ts';
import { keyHandlers } from './identity/key-handlers.ts';
import { WorkspaceStore } from './identity/workspace-store.ts';
import { imageHandlers } from './images/images/image-handlers.ts';
import { ImageImporter } from './images/images/image-importer.ts';
import { inspectUpload } from './images/images/image-inspector.ts';
import { ImageService } from './images/images/image-service.ts';
import { presetHandlers } from './images/presets/preset-handlers.ts';
import { PresetService } from './images/presets/preset-service.ts';
import { projectHandlers } from './images/projects/project-handlers.ts';
import { ProjectService } from './images/projects/project-service.ts';
import type { GuardedFetcher } from './outbound/guarded-fetch.ts';
import type { Plans } from './plans/plans.ts';

export interface Infrastructure {
  config: Config;
  database: Database;
  plans: Plans;
  blobs: BlobStore;
  fetcher: GuardedFetcher;
  log: Logger;
}

/** Wires the capabilities together: stores into services, services into operation handlers. */
export function composeHandlers({ config, database, plans, blobs, fetcher, log }: Infrastructure) {
  const projects = new ProjectService(database, plans, blobs);
  const presets = new PresetService(database, projects);
  const images = new ImageService({
    database,
    projects,
    blobs,
    plans,
    importer: new ImageImporter(fetcher, config.maxUploadBytes),
    inspect: (data) => inspectUpload(data, { maxInputPixels: config.maxInputPixels }),
    publicUrl: config.publicUrl,
  });
  const keys = new ApiKeyService(new ApiKeyStore(database));
  const authenticator = new Authenticator(new ApiKeyStore(database), new WorkspaceStore(database), (error) =>
    log.warn({ err: error }, 'could not record key use'),
  );
  const handlers: Handlers = {
    ...projectHandlers(projects),
    ...presetHandlers(presets),
    ...imageHandlers(images),
    ...keyHandlers(keys),
  };
  return { handlers, authenticator };
}
