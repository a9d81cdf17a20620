import { z } from 'zod';
import { Deleted, Id } from '../common/resource.ts';
import { defineOperation } from '../operation.ts';
import {
  AcceptedInvite,
  AcceptInvite,
  CreatedInvite,
  CreateInvite,
  Invite,
  Member,
  PlanListing,
  Team,
  TeamListing,
  UpdateMember,
  UpdateTeam,
} from './team.ts';

const MemberParams = z.strictObject({ userId: Id });
const InviteParams = z.strictObject({ inviteId: Id });
const TokenParams = z.strictObject({
  token: z
    .string()
    .min(16)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
});

export const teamOperations = [
  defineOperation({
    id: 'listTeams',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/teams',
    summary: 'List your workspaces',
    description:
      "The workspaces the key's user belongs to, with the user's role in each. Needs no x-service-team header: call it first to find the id to send there. Free.",
    tag: 'Team',
    scopes: [],
    teamHeader: false,
    paged: true,
    output: TeamListing,
  }),
  defineOperation({
    id: 'listPlans',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/plans',
    summary: 'List the plans',
    description:
      'The plans of this instance (its plan table) with what each allows: pages per crawl, monthly credits, image projects and images, schedules, custom rule packs (null: unlimited). Needs no x-service-team header. Free. Next: updateTeam with one of the names, as an owner.',
    tag: 'Team',
    scopes: [],
    teamHeader: false,
    output: z.array(PlanListing),
  }),
  defineOperation({
    id: 'getTeam',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/team',
    summary: 'Read the workspace',
    description:
      "The workspace's name, settings, plan and its limits, credit balance, and this month's usage (UTC calendar month). Any member may read it. Free.",
    tag: 'Team',
    scopes: [],
    output: Team,
  }),
  defineOperation({
    id: 'updateTeam',
    api: 'workspace',
    method: 'PATCH',
    path: '/api/v1/team',
    summary: 'Change the workspace',
    description:
      "Renames the workspace, changes its settings (merged: fields left out keep their value), or changes its plan. Changing the plan needs the owner role; credits do not move on a plan change: the balance stays as it is and the new plan's allowance comes with the next monthly top-up. An unknown plan answers 400.",
    tag: 'Team',
    scopes: ['team:admin'],
    body: UpdateTeam,
    output: Team,
  }),
  defineOperation({
    id: 'listMembers',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/team/members',
    summary: 'List members',
    description: 'The members of the workspace with their roles. Any member may read it. Free.',
    tag: 'Team',
    scopes: [],
    paged: true,
    output: Member,
  }),
  defineOperation({
    id: 'updateMember',
    api: 'workspace',
    method: 'PATCH',
    path: '/api/v1/team/members/{userId}',
    summary: "Change a member's role",
    description:
      "Sets a member's role. No one gives a role ranked above their own (only an owner makes an owner) or one with rights the calling key lacks (403 forbidden, with `missingScopes`); only an owner changes an owner's role. The last owner cannot be demoted (409 last_owner): make another member owner first.",
    tag: 'Team',
    scopes: ['team:admin'],
    params: MemberParams,
    body: UpdateMember,
    output: Member,
    errors: ['last_owner'],
  }),
  defineOperation({
    id: 'removeMember',
    api: 'workspace',
    method: 'DELETE',
    path: '/api/v1/team/members/{userId}',
    summary: 'Remove a member',
    description:
      'Removes a member from the workspace and revokes their API keys of this workspace. Needs team:admin, except for removing yourself (leaving). Only an owner may remove an owner; the last owner cannot be removed (409 last_owner).',
    tag: 'Team',
    scopes: [],
    params: MemberParams,
    output: Deleted,
    errors: ['last_owner'],
  }),
  defineOperation({
    id: 'createInvite',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/team/invites',
    summary: 'Invite someone',
    description:
      "Invites an email address with a role. The answer carries the token and the link to send (`url`), in this answer only. A pending invite for the same email is replaced. The role may not rank above the caller's (only an owner invites an owner) nor carry rights the calling key lacks (403 forbidden, with `missingScopes`); a member already in the workspace answers 409 already_member. Next: send the link; the invitee calls acceptInvite.",
    tag: 'Team',
    scopes: ['team:admin'],
    body: CreateInvite,
    output: CreatedInvite,
    status: 201,
    errors: ['already_member'],
  }),
  defineOperation({
    id: 'listInvites',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/team/invites',
    summary: 'List pending invites',
    description: 'Invites not yet accepted, revoked or expired, without their tokens. Free.',
    tag: 'Team',
    scopes: ['team:admin'],
    paged: true,
    output: Invite,
  }),
  defineOperation({
    id: 'revokeInvite',
    api: 'workspace',
    method: 'DELETE',
    path: '/api/v1/team/invites/{inviteId}',
    summary: 'Revoke an invite',
    description: 'Revokes an invite that has not been accepted: its link answers 404 from now on.',
    tag: 'Team',
    scopes: ['team:admin'],
    params: InviteParams,
    output: Deleted,
  }),
  defineOperation({
    id: 'acceptInvite',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/invites/{token}/accept',
    summary: 'Accept an invite',
    description:
      "Joins the workspace with the role of the invite, whose token is in the link. When an account has the invited email, only that account may accept: call as it (one of its API keys, or its dashboard session with the CSRF token); with no credential the answer is 401 sign_in_required, as another account 403 invite_for_another_account. An invite never sets or changes an existing account's password: `name` and `password` are refused (400) then. When no account has the email, call with no credential: the account is created with `password` (required) and `name`, and gets the invite's role in this workspace only. An invite works once: a used, revoked or unknown token answers 404, an expired one 410 invite_expired.",
    tag: 'Team',
    scopes: [],
    teamHeader: false,
    credentials: 'optional',
    params: TokenParams,
    body: AcceptInvite,
    output: AcceptedInvite,
    errors: ['sign_in_required', 'invite_for_another_account', 'csrf_failed', 'not_a_member', 'invite_expired', 'already_member'],
  }),
];
