import type { MailContent } from '../alerts/email-sender.ts';
import { html } from '../reports/html-escape.ts';

/** The mail that carries a reset link: what it is for, how long it works, and what using it ends. */
export function passwordResetEmail(input: { email: string; url: string; expiresAt: string }): MailContent {
  const subject = '[Loupe] Reset your password';
  const lines = [
    `Someone asked to reset the password of the Loupe account ${input.email}.`,
    'If it was you, open this link to choose a new password:',
    input.url,
    `It works once, until ${input.expiresAt} (UTC). Setting a password signs the account out everywhere and revokes all its API keys.`,
    'If it was not you, ignore this mail: nothing changes until the link is used.',
  ];
  const text = `${lines.join('\n\n')}\n`;
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5">
<p>${lines[0]}</p>
<p>${lines[1]}<br><a href="${input.url}">${input.url}</a></p>
<p>${lines[3]}</p>
<p style="color: #666">${lines[4]}</p>
</body></html>
`;
  return { subject, text, html: body.markup };
}
