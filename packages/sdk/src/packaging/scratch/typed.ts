// Typechecked (never run) by pack.test.ts in a scratch project that installed the packed SDK, strict and without skipLibCheck.
import { createClient, isLoupeError, type LoupeClient } from '@loupe/sdk';

const loupe: LoupeClient = createClient({ baseUrl: 'http://localhost:8080', apiKey: 'key' });
const [workspace] = await loupe.listTeams();
const workspaceId: string = workspace!.id;

try {
  await loupe.getImageProject({ projectId: workspaceId });
} catch (error) {
  if (isLoupeError(error, 'not_found')) console.log(error.status);
}

// @ts-expect-error: answers are typed, so a field the contract does not declare is refused.
console.log(workspace!.notAField);
// @ts-expect-error: requests are typed too.
await loupe.getImageProject({ projectId: 42 });
