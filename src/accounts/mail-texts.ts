import type { MailMessage } from '../mail/model.js';
import { html } from '../web/html.js';

/** The mail of a link: the same words in plain text and HTML, the link in both. */
export function linkMail(p: {
  to: string;
  subject: string;
  lead: string;
  action: string;
  link: string;
  footer: string;
}): MailMessage {
  return {
    to: p.to,
    subject: p.subject,
    text: `${p.lead}\n\n${p.action}:\n${p.link}\n\n${p.footer}\n`,
    html: html`<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">
<p>${p.lead}</p>
<p><a href="${p.link}">${p.action}</a></p>
<p style="color:#555;font-size:90%">${p.footer}</p>
<p style="color:#555;font-size:90%">If the button does not work, copy this address into your browser: ${p.link}</p>
</body></html>`.value,
  };
}

const WHERE = {
  developer: 'Vitrine developer portal',
  operator: 'Vitrine operator console',
  user: 'your account',
};

export function resetMail(kind: keyof typeof WHERE, to: string, link: string, appName?: string): MailMessage {
  const where = kind === 'user' && appName ? `your account (used by ${appName})` : WHERE[kind];
  return linkMail({
    to,
    subject: 'Reset your password',
    lead: `Someone (we hope you) asked to reset the password of ${where} for ${to}.`,
    action: 'Choose a new password',
    link,
    footer:
      'The link works once, for 30 minutes. If you did not ask for it, ignore this message: your password stays as it is.',
  });
}

export function verifyMail(kind: keyof typeof WHERE, to: string, link: string): MailMessage {
  return linkMail({
    to,
    subject: 'Confirm your email address',
    lead: `Please confirm that ${to} is the address of ${WHERE[kind]}.`,
    action: 'Confirm my email address',
    link,
    footer: 'The link works once, for 7 days. If you did not create this account, ignore this message.',
  });
}
