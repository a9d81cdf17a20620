// Run by pack.test.ts with each Node it checks, from a scratch project that installed the packed SDK.
import { cdnUrl, createClient, isLoupeError, LoupeError } from '@loupe/sdk';

const baseUrl = process.env.LOUPE_URL;
const apiKey = process.env.LOUPE_API_KEY;

const [workspace] = await createClient({ baseUrl, apiKey }).listTeams();
const loupe = createClient({ baseUrl, apiKey, workspaceId: workspace.id });
const team = await loupe.getTeam();

let missing;
try {
  await loupe.getImageProject({ projectId: '00000000-0000-4000-8000-000000000000' });
} catch (error) {
  missing = {
    isLoupeError: isLoupeError(error),
    instanceOfLoupeError: error instanceof LoupeError,
    status: error.status,
    code: error.code,
  };
}

const signed = await cdnUrl({
  baseUrl,
  project: 'blog',
  path: 'cover photo.jpg',
  transforms: { width: 320 },
  sign: { secret: 'a'.repeat(32) },
});

console.log(JSON.stringify({ node: process.version, workspaceId: workspace.id, teamName: team.name, missing, signed }));
