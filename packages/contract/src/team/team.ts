import { z } from 'zod';
import { atLeastOneField } from '../common/at-least-one-field.ts';
import { freeText } from '../common/free-text.ts';
import { Id, Timestamp } from '../common/resource.ts';
import { TimeZone } from '../common/time-zone.ts';
import { Role } from '../identity/roles.ts';

const TeamName = freeText({ max: 100 });
const Email = z
  .email()
  .max(254)
  .transform((email) => email.toLowerCase());

/** One of the caller's workspaces, as `GET /teams` lists them. */
export const TeamListing = z
  .object({
    id: Id,
    name: z.string(),
    plan: z.string(),
    role: Role.describe("The caller's role there."),
  })
  .meta({ id: 'TeamListing' });
export type TeamListing = z.infer<typeof TeamListing>;

export const TeamSettings = z
  .object({
    timezone: z.string().describe('IANA time zone; "UTC" until set.'),
    notificationEmail: z.string().nullable().describe('Where workspace notices go; null until set.'),
  })
  .meta({ id: 'TeamSettings' });
export type TeamSettings = z.infer<typeof TeamSettings>;

/** DESIGN.md §6; null is unlimited. */
export const TeamLimits = z
  .object({
    pagesPerCrawl: z.number().int(),
    monthlyCredits: z.number().int().nullable().describe('null: unmetered, crawls spend no credits.'),
    imageProjects: z.number().int().nullable(),
    imagesPerProject: z.number().int().nullable(),
    scheduledCrawls: z.boolean(),
    customRulePacks: z.boolean(),
  })
  .meta({ id: 'TeamLimits' });
export type TeamLimits = z.infer<typeof TeamLimits>;

/** A plan of this instance's plan table (DESIGN.md §6) and what it allows. */
export const PlanListing = z
  .object({
    name: z.string(),
    limits: TeamLimits,
  })
  .meta({ id: 'PlanListing' });
export type PlanListing = z.infer<typeof PlanListing>;

export const TeamUsage = z
  .object({
    month: z
      .string()
      .regex(/^\d{4}-\d{2}$/)
      .describe('The calendar month in UTC, YYYY-MM.'),
    crawls: z.number().int().describe('Crawls started this month.'),
    pagesCrawled: z.number().int().describe('Pages crawled by the crawls started this month.'),
    creditsCharged: z.number().int().describe('Credits charged this month.'),
    members: z.number().int(),
    imageProjects: z.number().int(),
  })
  .meta({ id: 'TeamUsage' });
export type TeamUsage = z.infer<typeof TeamUsage>;

export const Team = z
  .object({
    id: Id,
    name: z.string(),
    plan: z.string(),
    settings: TeamSettings,
    limits: TeamLimits,
    credits: z.object({
      balance: z.number().int().describe('Credits available now.'),
      monthlyAllowance: z.number().int().nullable().describe("The plan's monthly credits; null: unmetered."),
    }),
    usage: TeamUsage,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Team' });
export type Team = z.infer<typeof Team>;

export const UpdateTeamSettings = atLeastOneField(
  z.strictObject({
    timezone: TimeZone.optional(),
    notificationEmail: Email.nullable().optional().describe('null clears it.'),
  }),
  'Give at least one setting to change.',
);

export const UpdateTeam = atLeastOneField(
  z.strictObject({
    name: TeamName.optional(),
    settings: UpdateTeamSettings.optional().describe('Merged into the stored settings; fields left out keep their value.'),
    plan: z.string().min(1).max(50).optional().describe('A plan name; only an owner may change it.'),
  }),
  'Give at least one field to change.',
);
export type UpdateTeam = z.infer<typeof UpdateTeam>;

export const Member = z
  .object({
    userId: Id,
    email: z.string(),
    name: z.string(),
    role: Role,
    joinedAt: Timestamp,
  })
  .meta({ id: 'Member' });
export type Member = z.infer<typeof Member>;

export const UpdateMember = z.strictObject({ role: Role });
export type UpdateMember = z.infer<typeof UpdateMember>;

export const Invite = z
  .object({
    id: Id,
    email: z.string(),
    role: Role,
    invitedBy: Id.nullable().describe('The user who sent it.'),
    expiresAt: Timestamp,
    createdAt: Timestamp,
  })
  .meta({ id: 'Invite' });
export type Invite = z.infer<typeof Invite>;

export const CreatedInvite = Invite.extend({
  token: z.string().describe('The secret of the invite. Shown in this answer only.'),
  url: z.string().describe("The link to send to the invitee, absolute, on the instance's public address; it carries the token."),
}).meta({ id: 'CreatedInvite' });
export type CreatedInvite = z.infer<typeof CreatedInvite>;

export const CreateInvite = z.strictObject({
  email: Email,
  role: Role,
  expiresInDays: z.number().int().min(1).max(30).default(7).describe('1–30 days; 7 when left out.'),
});
export type CreateInvite = z.infer<typeof CreateInvite>;

export const AcceptInvite = z.strictObject({
  name: freeText({ max: 100 })
    .optional()
    .describe('For a new account; defaults to the part of the email before @. Refused for an existing one.'),
  password: z
    .string()
    .min(8)
    .max(200)
    .optional()
    .describe('For a new account, and required then; refused for an existing one, whose password an invite never sets.'),
});
export type AcceptInvite = z.infer<typeof AcceptInvite>;

export const AcceptedInvite = z
  .object({
    workspace: z.object({ id: Id, name: z.string() }),
    userId: Id,
    email: z.string(),
    role: Role,
  })
  .meta({ id: 'AcceptedInvite' });
export type AcceptedInvite = z.infer<typeof AcceptedInvite>;
