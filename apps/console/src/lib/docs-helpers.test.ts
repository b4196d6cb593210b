import { clientLoginRequestSchema, clientSessionRequestSchema } from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { QUICK_START_LOGIN } from '@/components/docs/quick-start.tsx';
import { createCurrentUser } from '@/test/render-with-providers.tsx';
import { canEditCode } from './can-edit-code.ts';
import { extractCSharpType } from './csharp-types.ts';
import { buildIntegrationPath, readIntegrationSearch } from './integration-search.ts';
import { markdownSection, parseInline, parseMarkdownBlocks } from './markdown-blocks.ts';
import { describeSchemaFields } from './schema-fields.ts';

describe('extractCSharpType', () => {
  const source = [
    'using System;',
    'public static class LatchkeySettings { public const string ApiKey = "}"; }',
    '/// <summary>The login window.</summary>',
    'public class LoginForm : Form',
    '{',
    '    private string brace = @"a ""}"" b";',
    "    private char c = '}';",
    '    // a } in a comment',
    '    void Go() { if (true) { } }',
    '}',
    'public class MainForm : Form { }',
  ].join('\n');

  it('returns the whole class with its doc comment, braces in literals and comments ignored', () => {
    const loginForm = extractCSharpType(source, /Login\w*Form$/);
    expect(
      loginForm?.startsWith('/// <summary>The login window.</summary>\npublic class LoginForm'),
    ).toBe(true);
    expect(loginForm?.endsWith('void Go() { if (true) { } }\n}')).toBe(true);
  });

  it('answers null for a class that is not there', () => {
    expect(extractCSharpType(source, /^Nothing$/)).toBeNull();
  });
});

describe('markdown blocks', () => {
  const markdown = [
    '## Signed responses',
    'Every response has:',
    '',
    '- `X-Signature-Timestamp`: unix seconds;',
    '- the signature over',
    '',
    '  ```',
    '  {timestamp}.{nonce}.{body}',
    '  ```',
    '',
    '### Worked example',
    '```js',
    'verify();',
    '```',
    '## Rate limits',
    'not included',
  ].join('\n');

  it('takes one section and reads its headings, lists, paragraphs and fences', () => {
    const blocks = parseMarkdownBlocks(markdownSection(markdown, 'Signed responses'));
    expect(blocks).toEqual([
      { kind: 'paragraph', text: 'Every response has:' },
      { kind: 'list', items: ['`X-Signature-Timestamp`: unix seconds;', 'the signature over'] },
      { kind: 'code', language: '', code: '{timestamp}.{nonce}.{body}' },
      { kind: 'heading', level: 3, text: 'Worked example' },
      { kind: 'code', language: 'js', code: 'verify();' },
    ]);
  });

  it('reads inline code, strong and emphasis, leaving snake_case alone', () => {
    expect(parseInline('a `b` **c** _d_ user_id')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'code', text: 'b' },
      { kind: 'text', text: ' ' },
      { kind: 'strong', text: 'c' },
      { kind: 'text', text: ' ' },
      { kind: 'emphasis', text: 'd' },
      { kind: 'text', text: ' user_id' },
    ]);
  });
});

describe('describeSchemaFields', () => {
  it('lists the login fields from the contract, required ones and limits included', () => {
    const [fields] = describeSchemaFields(clientLoginRequestSchema, 'input');
    expect(fields!.map((field) => field.name)).toEqual(Object.keys(clientLoginRequestSchema.shape));
    expect(fields!.find((field) => field.name === 'username')).toEqual({
      name: 'username',
      type: 'string',
      isRequired: true,
      maxLength: 64,
    });
    expect(fields!.find((field) => field.name === 'hwid')?.isRequired).toBe(false);
  });

  it('gives one list per session/track action', () => {
    const variants = describeSchemaFields(clientSessionRequestSchema, 'input');
    expect(variants.map((fields) => fields.find((field) => field.name === 'action')?.type)).toEqual(
      ['"start"', '"heartbeat"', '"end"'],
    );
  });

  it("keeps the quick start's login example valid for the contract", () => {
    expect(clientLoginRequestSchema.safeParse(QUICK_START_LOGIN).success).toBe(true);
  });
});

describe('/integration address', () => {
  it('round-trips an application and a language, and ignores what it cannot read', () => {
    const path = buildIntegrationPath({ applicationId: 42, language: 'python' });
    expect(path).toBe('/integration?app=42&language=python');
    expect(readIntegrationSearch(path.split('?')[1]!)).toEqual({
      applicationId: 42,
      language: 'python',
    });
    expect(readIntegrationSearch('app=abc&language=rust')).toEqual({
      applicationId: null,
      language: 'csharp',
    });
    expect(buildIntegrationPath({ applicationId: 7, language: 'csharp' })).toBe(
      '/integration?app=7',
    );
  });
});

describe('canEditCode', () => {
  it('allows the owner and accounts holding edit_code, nobody else', () => {
    expect(
      canEditCode(createCurrentUser({ userPermissions: { role: 'owner', permissions: [] } })),
    ).toBe(true);
    expect(
      canEditCode(
        createCurrentUser({ userPermissions: { role: 'user', permissions: ['edit_code'] } }),
      ),
    ).toBe(true);
    expect(
      canEditCode(
        createCurrentUser({
          userPermissions: { role: 'admin', permissions: ['manage_applications'] },
        }),
      ),
    ).toBe(false);
    expect(canEditCode(null)).toBe(false);
  });
});
