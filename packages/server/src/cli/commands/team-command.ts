import { Id, LoupeError, type Member, Role } from '@loupe/contract';
import type { LoupeClient } from '@loupe/sdk';
import { type Command, Option } from 'commander';
import { type ListFlags, listAll, withListFlags } from '../list-all.ts';
import { formatFields, formatTable } from '../table.ts';
import { userAction, wholeNumber, withClientFlags } from '../user-command.ts';

/** A member given by user id or by email. */
async function memberOf(client: LoupeClient, reference: string): Promise<Member> {
  const byId = Id.safeParse(reference).success;
  for await (const member of client.all.listMembers({ limit: 100 })) {
    if (byId ? member.userId === reference.toLowerCase() : member.email.toLowerCase() === reference.toLowerCase()) return member;
  }
  throw new LoupeError('not_found', { message: `No member with the id or email "${reference}": loupe team members shows them.` });
}

/** `loupe team`: the workspace, its members and invites. */
export function registerTeamCommand(program: Command): void {
  const team = program.command('team').description('The workspace: show it, its members (role, remove) and invites.');
  const roleOption = () => new Option('--role <role>', 'the role').choices(Role.options).makeOptionMandatory();

  withClientFlags(team.command('show').description('Show the workspace: id, name, plan, credits.')).action(
    userAction(async ({ session, output }) => {
      const workspace = await (await session.workspaceClient()).getTeam();
      output.result(workspace, (w) =>
        formatFields([
          ['id', w.id],
          ['name', w.name],
          ['plan', w.plan],
          ['credits', w.credits.balance],
          ['time zone', w.settings.timezone],
        ]),
      );
    }),
  );

  withListFlags(withClientFlags(team.command('members').description('List the members with their roles.'))).action(
    userAction<ListFlags>(async ({ session, output }, _args, options) => {
      const client = await session.workspaceClient();
      const list = await listAll(options, (page) => client.all.listMembers(page));
      output.result(list, (rows) =>
        formatTable(
          ['user id', 'name', 'email', 'role', 'joined'],
          rows.map((m) => [m.userId, m.name, m.email, m.role, m.joinedAt]),
        ),
      );
    }),
  );

  withClientFlags(team.command('role').description("Change a member's role (a workspace keeps at least one owner)."))
    .argument('<member>', 'user id or email')
    .addOption(roleOption())
    .action(
      userAction<{ role: Role }>(async ({ session, output }, [reference], options) => {
        const client = await session.workspaceClient();
        const member = await memberOf(client, reference as string);
        const updated = await client.updateMember({ userId: member.userId, body: { role: options.role } });
        output.result(updated, (m) => `${m.email} is now ${m.role}.`);
      }),
    );

  withClientFlags(
    team.command('remove').description('Remove a member (or leave, naming yourself); their keys of the workspace stop working.'),
  )
    .argument('<member>', 'user id or email')
    .action(
      userAction(async ({ session, output }, [reference]) => {
        const client = await session.workspaceClient();
        const member = await memberOf(client, reference as string);
        const answer = await client.removeMember({ userId: member.userId });
        output.result(answer, () => `Removed ${member.email}.`);
      }),
    );

  withClientFlags(team.command('invite').description('Invite someone by email with a role: prints the link to send them, once.'))
    .argument('<email>', "the invitee's email")
    .addOption(roleOption())
    .option('--expires-in-days <days>', 'the link works this long (1–30, default 7)', wholeNumber(1, 30))
    .action(
      userAction<{ role: Role; expiresInDays?: number }>(async ({ session, output }, [email], options) => {
        const client = await session.workspaceClient();
        const invite = await client.createInvite({
          body: { email: email as string, role: options.role, expiresInDays: options.expiresInDays },
        });
        output.result(invite, (i) => `Invited ${i.email} as ${i.role} until ${i.expiresAt}. Send them this link (shown once):\n${i.url}`);
      }),
    );

  withListFlags(withClientFlags(team.command('invites').description('List the pending invites.'))).action(
    userAction<ListFlags>(async ({ session, output }, _args, options) => {
      const client = await session.workspaceClient();
      const list = await listAll(options, (page) => client.all.listInvites(page));
      output.result(list, (rows) =>
        rows.length === 0
          ? 'No pending invites.'
          : formatTable(
              ['id', 'email', 'role', 'expires'],
              rows.map((i) => [i.id, i.email, i.role, i.expiresAt]),
            ),
      );
    }),
  );

  withClientFlags(team.command('revoke-invite').description('Revoke a pending invite; its link stops working.'))
    .argument('<inviteId>', 'invite id (loupe team invites)')
    .action(
      userAction(async ({ session, output }, [inviteId]) => {
        const answer = await (await session.workspaceClient()).revokeInvite({ inviteId: inviteId as string });
        output.result(answer, () => `Revoked invite ${String(inviteId)}.`);
      }),
    );
}
