import { describe, expect, it } from 'vitest';
import { defaultMailTemplates } from './default-mail-templates.ts';
import { mailTemplateProblem, renderMail } from './render-mail.ts';

describe('renderMail', () => {
  it('escapes values in HTML and keeps them as they are in text', () => {
    const mail = renderMail(defaultMailTemplates.password_reset, {
      username: '<b>eve</b> & "co"',
      app_name: 'Acme',
      link: 'https://example.com/portal/x/reset?token=abc',
      link_minutes: '30',
    });
    expect(mail.subject).toBe('Choose a new password for Acme');
    expect(mail.text).toContain('Hello <b>eve</b> & "co",');
    expect(mail.html).toContain('Hello &lt;b&gt;eve&lt;&#x2F;b&gt; &amp; &quot;co&quot;,');
    expect(mail.html).not.toContain('<b>eve</b>');
  });

  it('folds line breaks in the subject so a value cannot add a header', () => {
    const mail = renderMail(
      { subject: 'Hi {{username}}', text: '', html: '' },
      { username: 'eve\r\nBcc: victim@example.com' },
    );
    expect(mail.subject).toBe('Hi eve Bcc: victim@example.com');
  });

  it('refuses the forms that skip escaping, and partials', () => {
    expect(mailTemplateProblem('{{{username}}}')).toMatch(/skip escaping/);
    expect(mailTemplateProblem('{{&username}}')).toMatch(/skip escaping/);
    expect(mailTemplateProblem('{{#a}}{{{username}}}{{/a}}')).toMatch(/skip escaping/);
    expect(mailTemplateProblem('{{>footer}}')).toMatch(/Partials/);
    expect(mailTemplateProblem('{{#a}}')).toMatch(/cannot be read/);
    expect(mailTemplateProblem('Hello {{username}}')).toBeNull();
    expect(() => renderMail({ subject: '{{{x}}}', text: '', html: '' }, {})).toThrow();
  });

  it('renders nothing for names the values do not have, prototype ones included', () => {
    const mail = renderMail(
      { subject: '[{{constructor}}{{toString}}{{nope}}]', text: '', html: '' },
      {},
    );
    expect(mail.subject).toBe('[]');
  });

  it('every default template is usable', () => {
    for (const template of Object.values(defaultMailTemplates)) {
      for (const part of Object.values(template)) expect(mailTemplateProblem(part)).toBeNull();
    }
  });
});
