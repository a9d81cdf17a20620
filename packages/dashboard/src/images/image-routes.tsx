import type { RouteObject } from 'react-router';

/**
 * The Images section under `/w/:workspaceId/`: the project list, then a project's tabs
 * (images, presets, signing, usage, settings). Screens load on first visit (react-router's
 * `lazy`), so the dashboard's first load carries none of them.
 */
export const imageRoutes: RouteObject[] = [
  { path: 'images', lazy: { Component: async () => (await import('./image-projects-page.tsx')).ImageProjectsPage } },
  {
    path: 'images/:projectId',
    lazy: { Component: async () => (await import('./project-layout.tsx')).ProjectLayout },
    children: [
      { index: true, lazy: { Component: async () => (await import('./project-images-page.tsx')).ProjectImagesPage } },
      { path: 'images/:imageId', lazy: { Component: async () => (await import('./image-detail-page.tsx')).ImageDetailPage } },
      { path: 'presets', lazy: { Component: async () => (await import('./presets-page.tsx')).PresetsPage } },
      { path: 'presets/new', lazy: { Component: async () => (await import('./preset-editor-page.tsx')).PresetEditorPage } },
      { path: 'presets/:presetId', lazy: { Component: async () => (await import('./preset-editor-page.tsx')).PresetEditorPage } },
      { path: 'signing', lazy: { Component: async () => (await import('./signing-page.tsx')).SigningPage } },
      { path: 'usage', lazy: { Component: async () => (await import('./usage-page.tsx')).UsagePage } },
      { path: 'settings', lazy: { Component: async () => (await import('./project-settings-page.tsx')).ProjectSettingsPage } },
    ],
  },
];
