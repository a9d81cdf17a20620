import type { Handlers } from '../http/handlers.ts';
import type { ProjectService } from './project-service.ts';

type ProjectHandlers = Pick<
  Handlers,
  'listImageProjects' | 'createImageProject' | 'getImageProject' | 'updateImageProject' | 'deleteImageProject'
>;

export function projectHandlers(projects: ProjectService): ProjectHandlers {
  return {
    listImageProjects: ({ query }, { principal }) => projects.list(principal, query),
    createImageProject: ({ body }, { principal }) => projects.create(principal, body),
    getImageProject: ({ params }, { principal }) => projects.getWithStats(principal, params.projectId),
    updateImageProject: ({ params, body }, { principal }) => projects.update(principal, params.projectId, body),
    deleteImageProject: ({ params }, { principal }) => projects.delete(principal, params.projectId),
  };
}
