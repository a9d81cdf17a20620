import { z } from 'zod';
import { Deleted, Id } from '../common/resource.ts';
import { defineOperation } from '../operation.ts';
import { Image, ImportImage, ListImagesQuery, UpdateImage, UploadFields } from './image.ts';
import { ProjectParams } from './project-operations.ts';

const ImageParams = z.strictObject({ projectId: Id, imageId: Id });

export const imageOperations = [
  defineOperation({
    id: 'listImages',
    api: 'image',
    method: 'GET',
    path: '/api/images/projects/{projectId}/images',
    summary: 'List images',
    description: "Lists a project's images, optionally those under a path prefix or with a tag. Free.",
    tag: 'Images',
    scopes: ['images:read'],
    params: ProjectParams,
    query: ListImagesQuery,
    paged: true,
    output: Image,
  }),
  defineOperation({
    id: 'uploadImage',
    api: 'image',
    method: 'POST',
    path: '/api/images/projects/{projectId}/images',
    summary: 'Upload or import an image',
    description:
      'Stores an image at a path of the project: either `multipart/form-data` with the file in `file` (and an optional `path`, defaulting to the file name), or JSON `{ url, path? }` to fetch it from a public http(s) address. Uploading to an existing path replaces that image and its cached variants. Width, height, format and a blurhash are recorded. Next: deliver it at `/cdn/<slug>/<path>?t=<preset>`.',
    tag: 'Images',
    scopes: ['images:write'],
    params: ProjectParams,
    body: ImportImage,
    upload: { fields: UploadFields },
    output: Image,
    status: 201,
    errors: ['plan_limit_reached', 'payload_too_large', 'unsupported_media_type'],
  }),
  defineOperation({
    id: 'getImage',
    api: 'image',
    method: 'GET',
    path: '/api/images/projects/{projectId}/images/{imageId}',
    summary: 'Get an image',
    description: "Returns one image's record: path, size, dimensions, format, blurhash, alt text, tags and CDN URL.",
    tag: 'Images',
    scopes: ['images:read'],
    params: ImageParams,
    output: Image,
  }),
  defineOperation({
    id: 'updateImage',
    api: 'image',
    method: 'PATCH',
    path: '/api/images/projects/{projectId}/images/{imageId}',
    summary: 'Update an image',
    description: 'Sets the alt text (null clears it) or replaces the tags (at most 50, each up to 100 characters).',
    tag: 'Images',
    scopes: ['images:write'],
    params: ImageParams,
    body: UpdateImage,
    output: Image,
  }),
  defineOperation({
    id: 'deleteImage',
    api: 'image',
    method: 'DELETE',
    path: '/api/images/projects/{projectId}/images/{imageId}',
    summary: 'Delete an image',
    description: 'Deletes the image and its cached variants; its CDN URLs answer 404 from then on.',
    tag: 'Images',
    scopes: ['images:write'],
    params: ImageParams,
    output: Deleted,
  }),
];
