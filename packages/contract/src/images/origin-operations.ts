import { defineOperation } from '../operation.ts';
import { ImageOrigin, SetImageOrigin } from './image-origin.ts';
import { ProjectParams } from './project-operations.ts';

export const originOperations = [
  defineOperation({
    id: 'getImageOrigin',
    api: 'image',
    method: 'GET',
    path: '/api/images/projects/{projectId}/origin',
    summary: 'Get the origin',
    description:
      "Tells where the CDN fetches an image the project does not hold yet: an https base URL or an S3-compatible bucket, or null. An S3 origin's secret is never answered.",
    tag: 'Origins',
    scopes: ['images:read'],
    params: ProjectParams,
    output: ImageOrigin,
  }),
  defineOperation({
    id: 'setImageOrigin',
    api: 'image',
    method: 'PUT',
    path: '/api/images/projects/{projectId}/origin',
    summary: 'Set or remove the origin',
    description:
      'Sets the origin (null removes it). A CDN request for a path the project does not hold then fetches `<origin>/<path>` once, under the address guard, stores it as the image at that path (upload limits and plan quotas apply) and serves it; later requests never ask the origin again. A 404 at the origin is remembered for a short while. Addresses that are not public are refused.',
    tag: 'Origins',
    scopes: ['images:write'],
    params: ProjectParams,
    body: SetImageOrigin,
    output: ImageOrigin,
    errors: ['origin_secret_required'],
  }),
];
