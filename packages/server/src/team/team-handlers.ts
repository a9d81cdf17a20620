import type { Handlers } from '../http/handlers.ts';
import type { InviteService } from './invite-service.ts';
import type { MemberService } from './member-service.ts';
import type { TeamService } from './team-service.ts';

type TeamHandlers = Pick<
  Handlers,
  | 'listTeams'
  | 'getTeam'
  | 'updateTeam'
  | 'listMembers'
  | 'updateMember'
  | 'removeMember'
  | 'createInvite'
  | 'listInvites'
  | 'revokeInvite'
  | 'acceptInvite'
>;

export function teamHandlers(team: TeamService, members: MemberService, invites: InviteService): TeamHandlers {
  return {
    listTeams: ({ query }, { principal }) => team.listTeams(principal, query),
    getTeam: (_input, { principal }) => team.get(principal),
    updateTeam: ({ body }, { principal }) => team.update(principal, body),
    listMembers: ({ query }, { principal }) => members.list(principal, query),
    updateMember: ({ params, body }, { principal }) => members.changeRole(principal, params.userId, body.role),
    removeMember: ({ params }, { principal }) => members.remove(principal, params.userId),
    createInvite: ({ body }, { principal }) => invites.create(principal, body),
    listInvites: ({ query }, { principal }) => invites.list(principal, query),
    revokeInvite: ({ params }, { principal }) => invites.revoke(principal, params.inviteId),
    acceptInvite: ({ params, body }, { principal }) => invites.accept(principal, params.token, body),
  };
}
