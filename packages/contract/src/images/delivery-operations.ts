import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { ProjectParams } from './project-operations.ts';
import { SignedUrl, SigningSettings, SignUrlRequest, UpdateSigning, UsageDay, UsageQuery } from './signing.ts';

export const deliveryOperations = [
  defineOperation({
    id: 'getSigning',
    api: 'image',
    method: 'GET',
    path: '/api/images/projects/{projectId}/signing',
    summary: 'Get signing settings',
    description: "Tells whether the project signs CDN URLs, whether it requires signatures, and the secret's first characters.",
    tag: 'Signing',
    scopes: ['images:read'],
    params: ProjectParams,
    output: SigningSettings,
  }),
  defineOperation({
    id: 'updateSigning',
    api: 'image',
    method: 'POST',
    path: '/api/images/projects/{projectId}/signing',
    summary: 'Change signing settings',
    description:
      'Enables signing (generating a secret), requires signed URLs (unsigned, tampered or expired CDN requests then get 403), or rotates the secret; the previous secret keeps verifying for a grace period. The answer carries `signingSecret` only when one was generated: store it then. Next: signUrl.',
    tag: 'Signing',
    scopes: ['images:write'],
    params: ProjectParams,
    body: UpdateSigning,
    output: SigningSettings,
  }),
  defineOperation({
    id: 'signUrl',
    api: 'image',
    method: 'PUT',
    path: '/api/images/projects/{projectId}/signing',
    summary: 'Sign a CDN URL',
    description:
      'Returns an absolute, signed CDN URL for an image path and query parameters (preset `t`, ad-hoc transforms), optionally expiring. Signing must be enabled.',
    tag: 'Signing',
    scopes: ['images:read'],
    params: ProjectParams,
    body: SignUrlRequest,
    output: SignedUrl,
    errors: ['signing_disabled'],
  }),
  defineOperation({
    id: 'getImageUsage',
    api: 'image',
    method: 'GET',
    path: '/api/images/projects/{projectId}/usage',
    summary: 'CDN usage per day',
    description: 'Per day, oldest first: CDN requests, bytes served, transforms computed and the cache hit ratio.',
    tag: 'Usage',
    scopes: ['images:read'],
    params: ProjectParams,
    query: UsageQuery,
    output: z.array(UsageDay),
  }),
];
