import { z } from 'zod';
import { Deleted, Id } from '../common/resource.ts';
import { defineOperation } from '../operation.ts';
import { CreateImageProject, ImageProject, ImageProjectWithStats, UpdateImageProject } from './image-project.ts';

export const ProjectParams = z.strictObject({ projectId: Id });

export const projectOperations = [
  defineOperation({
    id: 'listImageProjects',
    api: 'image',
    method: 'GET',
    path: '/api/images/projects',
    summary: 'List image projects',
    description: "Lists the workspace's image projects (without stats). Free.",
    tag: 'Image projects',
    scopes: ['images:read'],
    paged: true,
    output: ImageProject,
  }),
  defineOperation({
    id: 'createImageProject',
    api: 'image',
    method: 'POST',
    path: '/api/images/projects',
    summary: 'Create an image project',
    description:
      "Creates a project to hold images and presets; its slug is generated and appears in CDN URLs. The plan's project limit answers 403 with `limit` and `current`. Next: create presets.",
    tag: 'Image projects',
    scopes: ['images:write'],
    body: CreateImageProject,
    output: ImageProject,
    status: 201,
    errors: ['plan_limit_reached'],
  }),
  defineOperation({
    id: 'getImageProject',
    api: 'image',
    method: 'GET',
    path: '/api/images/projects/{projectId}',
    summary: 'Get an image project',
    description: 'Returns one project with `stats`: image count and total size of originals in bytes.',
    tag: 'Image projects',
    scopes: ['images:read'],
    params: ProjectParams,
    output: ImageProjectWithStats,
  }),
  defineOperation({
    id: 'updateImageProject',
    api: 'image',
    method: 'PATCH',
    path: '/api/images/projects/{projectId}',
    summary: 'Update an image project',
    description:
      'Renames a project, sets its custom domain (null removes it) or whether served images keep their metadata (`keepMetadata`). A domain used by another project answers 409. The slug never changes.',
    tag: 'Image projects',
    scopes: ['images:write'],
    params: ProjectParams,
    body: UpdateImageProject,
    output: ImageProject,
    errors: ['custom_domain_taken'],
  }),
  defineOperation({
    id: 'deleteImageProject',
    api: 'image',
    method: 'DELETE',
    path: '/api/images/projects/{projectId}',
    summary: 'Delete an image project',
    description: 'Permanently deletes the project with all its presets and images. Cannot be undone.',
    tag: 'Image projects',
    scopes: ['images:write'],
    params: ProjectParams,
    output: Deleted,
  }),
];
