import Mustache from 'mustache';
import type { MailTemplate } from './default-mail-templates.ts';

/** A message as the transport sends it, every value in place. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

type TemplateToken = [string, string, number, number, TemplateToken[]?, ...unknown[]];

/**
 * Why a template cannot be used, or null. Values are escaped in HTML by Mustache's `{{name}}`;
 * the forms that skip escaping (`{{{name}}}`, `{{&name}}`) and partials (`{{>name}}`) are
 * refused, so an end user's name can never become markup in a mail.
 */
export function mailTemplateProblem(template: string): string | null {
  let tokens: TemplateToken[];
  try {
    tokens = Mustache.parse(template) as TemplateToken[];
  } catch (error) {
    return `The template cannot be read: ${(error as Error).message}`;
  }
  const walk = (list: TemplateToken[]): string | null => {
    for (const token of list) {
      const [type, name] = token;
      if (type === '&' || type === '{')
        return `{{{${name}}}} would skip escaping: write {{${name}}}`;
      if (type === '>') return `Partials ({{>${name}}}) are not supported`;
      const nested = token[4];
      if (Array.isArray(nested)) {
        const problem = walk(nested);
        if (problem) return problem;
      }
    }
    return null;
  };
  return walk(tokens);
}

/**
 * Fills a template in. The subject and the text body take values as they are (plain text),
 * with any line break in the subject folded to a space so no value can add a header; the
 * HTML body escapes every value. The view has no prototype, so `{{constructor}}` is empty.
 */
export function renderMail(template: MailTemplate, values: Record<string, string>): RenderedMail {
  for (const part of [template.subject, template.text, template.html]) {
    const problem = mailTemplateProblem(part);
    if (problem) throw new Error(problem);
  }
  const view = Object.assign(Object.create(null) as Record<string, string>, values);
  const asIs = { escape: (value: unknown) => String(value) };
  return {
    subject: foldLineBreaks(Mustache.render(template.subject, view, undefined, asIs)).trim(),
    text: Mustache.render(template.text, view, undefined, asIs),
    html: Mustache.render(template.html, view),
  };
}

/** CR, LF and the other line separators a header must never carry, as one space each run. */
export function foldLineBreaks(value: string): string {
  return value.replace(/[\r\n\u0085\u2028\u2029]+/g, ' ');
}
