import type { MailKind } from '@latchkey/contracts';

/** A template as the renderer reads it: Mustache, `{{name}}` for each value. */
export interface MailTemplate {
  subject: string;
  text: string;
  html: string;
}

/**
 * The English templates every application starts with, written to need no editing. The
 * values each kind offers are listed in mail-values.ts; the HTML is plain enough for every
 * mail program (one column, inline styles, no images).
 */
export const defaultMailTemplates: Record<MailKind, MailTemplate> = {
  password_reset: {
    subject: 'Choose a new password for {{app_name}}',
    text: [
      'Hello {{username}},',
      '',
      'Someone asked to choose a new password for your {{app_name}} account. If it was you, open this link within {{link_minutes}} minutes:',
      '',
      '{{link}}',
      '',
      'The link works once. If it was not you, ignore this mail: your password stays as it is.',
      '',
      '{{app_name}}',
    ].join('\n'),
    html: page(
      '<p>Hello {{username}},</p>' +
        '<p>Someone asked to choose a new password for your {{app_name}} account. If it was you, open this link within {{link_minutes}} minutes:</p>' +
        button('{{link}}', 'Choose a new password') +
        '<p>The link works once. If it was not you, ignore this mail: your password stays as it is.</p>',
    ),
  },
  email_verification: {
    subject: 'Confirm your e-mail address for {{app_name}}',
    text: [
      'Hello {{username}},',
      '',
      'Please confirm that this is your e-mail address by opening this link:',
      '',
      '{{link}}',
      '',
      '{{app_name}}',
    ].join('\n'),
    html: page(
      '<p>Hello {{username}},</p>' +
        '<p>Please confirm that this is your e-mail address.</p>' +
        button('{{link}}', 'Confirm my address'),
    ),
  },
  license_key: {
    subject: 'Your {{app_name}} licence key',
    text: [
      'Hello,',
      '',
      'Here is your licence key for {{app_name}} ({{plan}}):',
      '',
      '{{key}}',
      '',
      'Enter it in {{app_name}} when it asks for a licence key. Keep this mail: the key is yours.',
      '{{#order}}',
      'Your order: {{order}}',
      '{{/order}}',
      '',
      '{{app_name}}',
    ].join('\n'),
    html: page(
      '<p>Hello,</p>' +
        '<p>Here is your licence key for {{app_name}} ({{plan}}):</p>' +
        // pre-line: a batch's keys, one a line.
        '<p style="font-family:monospace;font-size:18px;letter-spacing:1px;white-space:pre-line">{{key}}</p>' +
        '<p>Enter it in {{app_name}} when it asks for a licence key. Keep this mail: the key is yours.</p>' +
        '{{#order}}<p>Your order: {{order}}</p>{{/order}}',
    ),
  },
  expiry_reminder: {
    subject: 'Your {{app_name}} access ends on {{expires_on}}',
    text: [
      'Hello {{username}},',
      '',
      'Your {{plan}} access to {{app_name}} ends on {{expires_on}}. Renew before then to keep using it.',
      '',
      'To stop these reminders: {{unsubscribe_link}}',
      '',
      '{{app_name}}',
    ].join('\n'),
    html: page(
      '<p>Hello {{username}},</p>' +
        '<p>Your {{plan}} access to {{app_name}} ends on {{expires_on}}. Renew before then to keep using it.</p>' +
        '<p style="font-size:12px;color:#666"><a href="{{unsubscribe_link}}">Stop these reminders</a></p>',
    ),
  },
  new_device: {
    subject: 'A new device signed in to your {{app_name}} account',
    text: [
      'Hello {{username}},',
      '',
      'A new device ({{device_name}}) was added to your {{app_name}} account on {{time}}.',
      '',
      'If it was not you, change your password now.',
      '',
      '{{app_name}}',
    ].join('\n'),
    html: page(
      '<p>Hello {{username}},</p>' +
        '<p>A new device ({{device_name}}) was added to your {{app_name}} account on {{time}}.</p>' +
        '<p>If it was not you, change your password now.</p>',
    ),
  },
};

/** One line a block, so the console's editor shows a page a vendor can read and change. */
function page(body: string): string {
  return [
    '<!doctype html>',
    '<html>',
    '<body style="margin:0;padding:24px;background:#f5f5f5">',
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a">',
    body.replaceAll('</p><', '</p>\n<'),
    '<p style="color:#666">{{app_name}}</p>',
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

function button(href: string, label: string): string {
  return `<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:6px">${label}</a></p><p style="font-size:12px;color:#666;word-break:break-all">${href}</p>`;
}
