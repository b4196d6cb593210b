import {
  sampleLanguageCatalogue,
  type Application,
  type Sample,
  type SampleLanguage,
  type SdkPackage,
} from '@latchkey/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { INTEGRATION_APPLICATION_KEY } from '@/lib/integration-search.ts';
import { readCodeBox } from '@/test/code-mirror.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderWithProviders, signedInAuth } from '@/test/render-with-providers.tsx';
import {
  createApplication,
  jsonResponse,
  neverAnswered,
  stubOwnerApi,
} from '@/test/stub-owner-api.ts';
import { APPLICATIONS_FETCH_ERROR, IntegrationPage } from './integration-page.tsx';

const applications = [
  createApplication({ id: 7, name: 'Orbit', apiKey: 'lk_live_orbit', version: '1.0.0' }),
  createApplication({ id: 8, name: 'Comet', apiKey: 'lk_live_comet', version: '2.4.1' }),
];

/** What this stand-in server has built: the Python and Node.js packages, not C# nor C++. */
const sdkPackages: SdkPackage[] = [
  {
    language: 'python',
    name: 'latchkey',
    version: '0.1.0',
    file: 'latchkey-0.1.0-py3-none-any.whl',
    size: 23_481,
    sha256: 'a'.repeat(64),
  },
  {
    language: 'nodejs',
    name: '@latchkey/client',
    version: '0.1.0',
    file: 'latchkey-client-0.1.0.tgz',
    size: 18_426,
    sha256: 'b'.repeat(64),
  },
];

/** GET /api/applications, the SDK packages, and each application's samples rendered with its name. */
function stubIntegrationApi({
  list = applications as Application[],
  listAnswer = null as (() => Response | Promise<Response>) | null,
} = {}) {
  const state = { listAnswer };
  const sent = stubOwnerApi(({ url }) => {
    if (url.pathname === '/sdk/index.json') return jsonResponse(200, { packages: sdkPackages });
    if (url.pathname === '/api/applications') {
      return state.listAnswer?.() ?? jsonResponse(200, list);
    }
    const sample = /^\/api\/applications\/(\d+)\/samples\/(\w+)$/.exec(url.pathname);
    if (!sample) return undefined;
    const application = list.find(({ id }) => id === Number(sample[1]))!;
    const language = sample[2] as SampleLanguage;
    return jsonResponse(200, {
      language,
      filename: sampleLanguageCatalogue[language].filename,
      code: `// ${language} client for ${application.name}\n`,
      baseUrl: 'https://auth.example.com',
      isCustomized: false,
      updatedAt: null,
    } satisfies Sample);
  });
  return { sent, state };
}

function renderIntegration(path = '/integration') {
  return renderWithProviders(<IntegrationPage />, {
    path,
    auth: signedInAuth(),
  });
}

const SELECT_PROMPT = 'Select an application to see its API key, base URL and code samples.';

describe('IntegrationPage', { timeout: 30_000 }, () => {
  beforeEach(() => stubResizeObserver());

  it('says the applications are loading, and shows no samples yet', () => {
    stubOwnerApi(() => neverAnswered());
    renderIntegration('/integration?app=7');

    expect(screen.getByRole('heading', { name: 'Integration Examples', level: 1 })).toBeTruthy();
    expect(screen.getByText('Loading applications…')).toBeTruthy();
    expect(screen.queryByRole('tablist', { name: 'Language' })).toBeNull();
    expect(screen.queryByText(SELECT_PROMPT)).toBeNull();
  });

  it("shows the server's reason, else its own, when the applications cannot be loaded", async () => {
    const { state } = stubIntegrationApi({
      listAnswer: () => jsonResponse(503, { message: 'Try again shortly', code: 'UNAVAILABLE' }),
    });
    const user = userEvent.setup();
    renderIntegration();

    const heading = await screen.findByRole('heading', { name: 'Error loading applications' });
    expect(within(heading.parentElement!).getByText('Try again shortly')).toBeTruthy();

    state.listAnswer = () => Promise.reject(new TypeError('Failed to fetch'));
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText(APPLICATIONS_FETCH_ERROR)).toBeTruthy();
    expect(APPLICATIONS_FETCH_ERROR).toBe('Failed to fetch applications');

    state.listAnswer = null;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText(SELECT_PROMPT)).toBeTruthy();
  });

  it('sends an owner without applications to the dashboard to create one', async () => {
    stubIntegrationApi({ list: [] });
    renderIntegration();

    const heading = await screen.findByRole('heading', { name: 'No Applications' });
    const emptyState = heading.parentElement!;
    expect(
      within(emptyState).getByText(
        'Create an application first: its samples come with its own API key.',
      ),
    ).toBeTruthy();
    expect(
      within(emptyState).getByRole('link', { name: 'Create an application' }).getAttribute('href'),
    ).toBe('/dashboard');
    expect(screen.queryByRole('combobox', { name: 'Application' })).toBeNull();
  });

  it('asks for an application when the address names none, or one that is not this owner’s', async () => {
    const { sent } = stubIntegrationApi();
    const { unmount } = renderIntegration();
    expect(await screen.findByText(SELECT_PROMPT)).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Application' }).textContent).toBe(
      'Select an application',
    );
    expect(screen.queryByRole('tablist', { name: 'Language' })).toBeNull();
    unmount();

    renderIntegration('/integration?app=99');
    expect(await screen.findByText(SELECT_PROMPT)).toBeTruthy();
    expect(sent.some(({ path }) => path.includes('/samples/'))).toBe(false);
    expect(localStorage.getItem(INTEGRATION_APPLICATION_KEY)).toBeNull();
  });

  it("shows the chosen application's connection details and samples, remembers it, and keeps the language in the address", async () => {
    stubIntegrationApi();
    const user = userEvent.setup();
    const { location, unmount } = renderIntegration('/integration?app=8');

    expect(await screen.findByRole('combobox', { name: 'Application' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Application' }).textContent).toBe('Comet');
    expect((screen.getByLabelText('API Key') as HTMLInputElement).value).toBe('lk_live_comet');
    expect(((await screen.findByLabelText('Base URL')) as HTMLInputElement).value).toBe(
      'https://auth.example.com',
    );
    expect(screen.getByTestId('sample-version').textContent).toBe('2.4.1');
    expect(localStorage.getItem(INTEGRATION_APPLICATION_KEY)).toBe('8');

    const tabs = within(screen.getByRole('tablist', { name: 'Language' })).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'C# WinForms',
      'Python Tkinter',
      'Node.js console',
      'C++ console',
    ]);
    expect(screen.getByRole('tab', { name: 'C# WinForms' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(await readCodeBox('C# WinForms code')).toBe('// csharp client for Comet\n');

    await user.click(screen.getByRole('tab', { name: 'Python Tkinter' }));
    expect(location.history?.at(-1)).toBe('/integration?app=8&language=python');
    expect(screen.getByRole('tab', { name: 'Python Tkinter' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(await readCodeBox('Python Tkinter code')).toBe('// python client for Comet\n');
    unmount();

    // A later visit without ?app= opens on the application chosen last.
    const later = renderIntegration('/integration?language=cpp');
    expect(await screen.findByTestId('sample-version')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Application' }).textContent).toBe('Comet');
    expect(screen.getByRole('tab', { name: 'C++ console' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    // Another language puts the remembered application in the address too: a link to share.
    await user.click(screen.getByRole('tab', { name: 'Node.js console' }));
    expect(later.location.history?.at(-1)).toBe('/integration?app=8&language=nodejs');
  });

  it('chooses the only application of an account that has one', async () => {
    stubIntegrationApi({ list: [applications[0]!] });
    const user = userEvent.setup();
    const { location } = renderIntegration();

    expect(await screen.findByTestId('sample-version')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Application' }).textContent).toBe('Orbit');
    expect((screen.getByLabelText('API Key') as HTMLInputElement).value).toBe('lk_live_orbit');
    expect(screen.queryByText(SELECT_PROMPT)).toBeNull();
    expect(await readCodeBox('C# WinForms code')).toBe('// csharp client for Orbit\n');
    // Taken for the owner, not chosen: a second application later asks again.
    expect(localStorage.getItem(INTEGRATION_APPLICATION_KEY)).toBeNull();

    // Another language names it in the address: a link to share, and now a choice.
    await user.click(screen.getByRole('tab', { name: 'Python Tkinter' }));
    expect(location.history?.at(-1)).toBe('/integration?app=7&language=python');
    expect(localStorage.getItem(INTEGRATION_APPLICATION_KEY)).toBe('7');
  });

  it('shows how to install each SDK this server has built, and says when one is not', async () => {
    stubIntegrationApi();
    const user = userEvent.setup();
    renderIntegration('/integration?app=7&language=python');

    const python = await screen.findByRole('region', { name: 'Install the Python SDK' });
    const origin = window.location.origin;
    expect((await within(python).findByLabelText('Install command')).textContent).toBe(
      `pip install "latchkey[nacl] @ ${origin}/sdk/latchkey-0.1.0-py3-none-any.whl"`,
    );
    expect(within(python).getByText('latchkey')).toBeTruthy();
    expect(python.textContent).toContain('0.1.0, 22.9 KB');
    const download = within(python).getByRole('link', {
      name: 'Download latchkey-0.1.0-py3-none-any.whl',
    });
    expect(download.getAttribute('href')).toBe(`${origin}/sdk/latchkey-0.1.0-py3-none-any.whl`);
    expect(
      within(python).getByRole('button', { name: 'Copy the Python install command' }),
    ).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Node.js console' }));
    const node = screen.getByRole('region', { name: 'Install the Node.js SDK' });
    expect(within(node).getByLabelText('Install command').textContent).toBe(
      `npm install ${origin}/sdk/latchkey-client-0.1.0.tgz`,
    );

    await user.click(screen.getByRole('tab', { name: 'C# WinForms' }));
    const csharp = screen.getByRole('region', { name: 'Install the C# SDK' });
    expect(csharp.textContent).toContain('This server has no C# package built.');
    expect(within(csharp).queryByRole('link')).toBeNull();
  });
});
