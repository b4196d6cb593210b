import type { Sample } from '@latchkey/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { readCodeBox } from '@/test/code-mirror.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders } from '@/test/render-with-providers.tsx';
import { jsonResponse, neverAnswered, stubOwnerApi } from '@/test/stub-owner-api.ts';
import { DOCUMENTED_FEATURES, DocsPage } from './docs-page.tsx';

const LOGIN_FORM = ['public class LoginForm : Form', '{', '    void LogIn() { }', '}'].join('\n');

const template = (code: string): Sample => ({
  language: 'csharp',
  filename: 'LatchkeyClient.cs',
  code,
  baseUrl: null,
  isCustomized: false,
  updatedAt: null,
});

/** GET /api/samples/csharp, the bare C# template the page shows its client from. */
function stubTemplate(answer: () => Response | Promise<Response>) {
  stubOwnerApi(({ url }) => (url.pathname === '/api/samples/csharp' ? answer() : undefined));
}

const section = (id: string) => document.getElementById(id)!;

describe('DocsPage', { timeout: 30_000 }, () => {
  beforeEach(() => stubResizeObserver());

  it('links each entry of "On this page" to the section of that name, in order', () => {
    stubTemplate(() => neverAnswered());
    renderWithProviders(<DocsPage />, { path: '/docs' });

    const links = within(screen.getByRole('navigation', { name: 'On this page' })).getAllByRole(
      'link',
    );
    expect(links.map((link) => link.textContent)).toEqual([
      'Quick Start',
      'Features',
      'C# Client',
      'API Endpoints',
      'Response Codes',
      'Licences',
      'Devices',
      'Variables',
      'Downloads and Updates',
      'Verifying Signatures',
      'Implementation Guide',
    ]);
    for (const link of links) {
      const target = section(link.getAttribute('href')!.slice(1));
      expect(target.tagName, link.textContent!).toBe('SECTION');
      expect(within(target).getByRole('heading', { level: 2 }).textContent).toBe(link.textContent);
    }

    expect(
      within(section('features'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([...DOCUMENTED_FEATURES]);
    // Taken from docs/client-api.md, so the page and the file cannot drift apart.
    expect(within(section('signatures')).getByText('X-Signature-Ed25519')).toBeTruthy();
    // The licences section is client-api.md's own, with the licensing calls and an example.
    const licences = within(section('licences'));
    expect(licences.getByText(/exactly one wins/)).toBeTruthy();
    expect(licences.getAllByText('POST /api/v1/license/login').length).toBeGreaterThan(0);
    expect(licences.getByText(/"missing_entitlements": \["TEAM"\]/)).toBeTruthy();
    // The offline licence's call, format and verification, from the same file.
    expect(licences.getAllByText('POST /api/v1/license/checkout').length).toBeGreaterThan(0);
    expect(licences.getByText(/function readLicense/)).toBeTruthy();
    // The devices section of docs/client-api.md, with devices/reset.
    const devices = within(section('devices'));
    expect(devices.getAllByText(/RESET_COOLDOWN/).length).toBeGreaterThan(0);
    expect(devices.getByText('POST /api/v1/devices/reset')).toBeTruthy();
    // The remote variables section of docs/client-api.md, its three calls and codes.
    const variables = within(section('variables'));
    for (const call of ['POST /api/v1/var', 'POST /api/v1/user-var', 'POST /api/v1/user-var/set']) {
      expect(variables.getAllByText(call).length).toBeGreaterThan(0);
    }
    expect(variables.getAllByText(/VARIABLE_READ_ONLY/).length).toBeGreaterThan(0);
  });

  it('says the C# client is loading, then why it could not be loaded, with Try Again', async () => {
    let answer = (): Response | Promise<Response> => neverAnswered();
    stubTemplate(() => answer());
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<DocsPage />, { path: '/docs' });
    expect(within(section('csharp-client')).getByRole('status').textContent).toBe(
      'Loading the C# client…',
    );
    unmount();

    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    renderWithProviders(<DocsPage />, { path: '/docs' });
    const heading = await screen.findByRole('heading', { name: 'Error loading the C# client' });
    const errorState = heading.parentElement!;
    expect(within(errorState).getByText('Failed to load the C# sample')).toBeTruthy();

    answer = () => jsonResponse(200, template(`using System;\n${LOGIN_FORM}\n`));
    await user.click(within(errorState).getByRole('button', { name: 'Try Again' }));
    expect(await readCodeBox('login form')).toBe(LOGIN_FORM);
  });

  it('shows the full client and, when the template has one, its login form on its own', async () => {
    stubTemplate(() =>
      jsonResponse(200, template(`using System;\npublic class Client { }\n${LOGIN_FORM}\n`)),
    );
    const { unmount } = renderWithProviders(<DocsPage />, { path: '/docs' });
    const client = section('csharp-client');
    expect(
      (await within(client).findByRole('heading', { name: /^Full C# client class/ })).textContent,
    ).toBe('Full C# client class (LatchkeyClient.cs)');
    expect(await readCodeBox('C# client')).toBe(
      `using System;\npublic class Client { }\n${LOGIN_FORM}\n`,
    );
    expect(await readCodeBox('login form')).toBe(LOGIN_FORM);
    expect(within(client).getByRole('link', { name: 'Code page' }).getAttribute('href')).toBe(
      '/integration',
    );
    unmount();

    stubTemplate(() => jsonResponse(200, template('public class Client { }\n')));
    renderWithProviders(<DocsPage />, { path: '/docs' });
    expect(
      await within(section('csharp-client')).findByText(
        'The login form is part of the full client above.',
      ),
    ).toBeTruthy();
  });
});
