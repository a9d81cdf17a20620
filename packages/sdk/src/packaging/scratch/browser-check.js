// Bundled by pack.test.ts with Vite from a scratch project that installed the packed SDK, then run in Chromium.
import { createClient, isLoupeError } from '@loupe/sdk';

window.checkSdk = async (apiKey) => {
  // No baseUrl: in a page the client talks to the page's origin.
  const [workspace] = await createClient({ apiKey }).listTeams();
  const team = await createClient({ apiKey, workspaceId: workspace.id }).getTeam();
  const missing = await createClient({ apiKey, workspaceId: workspace.id })
    .getImageProject({ projectId: '00000000-0000-4000-8000-000000000000' })
    .catch((error) => ({ isLoupeError: isLoupeError(error), status: error.status, code: error.code }));
  return { workspaceId: workspace.id, teamName: team.name, missing };
};
