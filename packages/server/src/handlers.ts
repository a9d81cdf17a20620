import type { Logger } from 'pino';
import type { Database } from './database/database.ts';
import type { Handlers } from './http/handlers.ts';
import { ApiKeyService } from './identity/api-key-service.ts';
import { ApiKeyStore } from './identity/api-key-store.ts';
import { Authenticator } from './identity/authenticator.ts';
import { keyHandlers } from './identity/key-handlers.ts';
import { WorkspaceStore } from './identity/workspace-store.ts';
import { presetHandlers } from './images/presets/preset-handlers.ts';
import { PresetService } from './images/presets/preset-service.ts';
import { projectHandlers } from './images/projects/project-handlers.ts';
import { ProjectService } from './images/projects/project-service.ts';
import type { Plans } from './plans/plans.ts';

/** Wires the capabilities together: stores into services, services into operation handlers. */
export function composeHandlers(database: Database, plans: Plans, log: Logger) {
  const projects = new ProjectService(database, plans);
  const presets = new PresetService(database, projects);
  const keys = new ApiKeyService(new ApiKeyStore(database));
  const authenticator = new Authenticator(new ApiKeyStore(database), new WorkspaceStore(database), (error) =>
    log.warn({ err: error }, 'could not record key use'),
  );
  const handlers: Handlers = {
    ...projectHandlers(projects),
    ...presetHandlers(presets),
    ...keyHandlers(keys),
  };
  return { handlers, authenticator };
}
