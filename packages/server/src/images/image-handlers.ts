import { LoupeError } from '@loupe/contract';
import type { Handlers } from '../http/handlers.ts';
import type { ImageService } from './image-service.ts';
import type { UploadSlotService } from './upload-slot-service.ts';

type ImageHandlers = Pick<
  Handlers,
  | 'listImages'
  | 'uploadImage'
  | 'createImageUpload'
  | 'confirmImageUpload'
  | 'getImage'
  | 'updateImage'
  | 'deleteImage'
  | 'purgeImageVariants'
  | 'purgeProjectVariants'
>;

export function imageHandlers(images: ImageService, slots: UploadSlotService): ImageHandlers {
  return {
    listImages: ({ params, query }, { principal }) =>
      images.list(principal, params.projectId, { prefix: query.prefix, tag: query.tag }, query),
    uploadImage: ({ params, body, upload }, { principal }) => {
      if (upload) return images.upload(principal, params.projectId, { kind: 'file', file: upload.file, path: upload.fields.path });
      if (!body) throw new LoupeError('validation_failed', { message: 'Send a multipart file or a JSON { url }.' });
      return images.upload(principal, params.projectId, { kind: 'url', url: body.url, path: body.path });
    },
    createImageUpload: ({ params, body }, { principal }) => slots.create(principal, params.projectId, body),
    confirmImageUpload: ({ params, body }, { principal }) => slots.confirm(principal, params.projectId, body),
    getImage: ({ params }, { principal }) => images.get(principal, params.projectId, params.imageId),
    updateImage: ({ params, body }, { principal }) => images.update(principal, params.projectId, params.imageId, body),
    deleteImage: ({ params }, { principal }) => images.delete(principal, params.projectId, params.imageId),
    purgeImageVariants: ({ params }, { principal }) => images.purgeVariants(principal, params.projectId, params.imageId),
    purgeProjectVariants: ({ params }, { principal }) => images.purgeProjectVariants(principal, params.projectId),
  };
}
