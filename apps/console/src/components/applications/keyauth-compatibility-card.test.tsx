import { KEYAUTH_NAME_TAKEN, KEYAUTH_NEEDS_IDENTITY, type Application } from '@latchkey/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { findToast } from '@/test/find-toast.ts';
import { stubResizeObserver } from '@/test/jsdom-stubs.ts';
import { renderSignedIn } from '@/test/render-with-providers.tsx';
import { resetEachTest } from '@/test/reset-each-test.ts';
import { jsonResponse, orbit, stubOwnerApi } from '@/test/stub-owner-api.ts';
import {
  KEYAUTH_PUBLIC_KEY_HINT,
  KEYAUTH_TURN_OFF_WARNING,
  KeyauthCompatibilityCard,
} from './keyauth-compatibility-card.tsx';

const SECRET = 'c0ffee'.repeat(10) + 'beef';
/** Orbit as the server answers once compatibility is on: what was missing is filled in. */
const orbitOn: Application = {
  ...orbit,
  keyauthCompatibility: true,
  keyauthOwnerId: 'Gen3rated0',
  keyauthName: 'Orbit',
  keyauthSecret: SECRET,
};

const enabledSwitch = () =>
  screen.getByRole('switch', { name: "Answer KeyAuth's client libraries" });
const field = (label: string) => screen.getByRole<HTMLInputElement>('textbox', { name: label });
const ownerIdField = () => field('Owner ID');
const nameField = () => field('Application name (KeyAuth)');
const hoursField = () => field('Session lifetime (hours)');
const saveButton = () => screen.getByRole('button', { name: 'Save KeyAuth Settings' });
const secretBox = () => screen.getByLabelText<HTMLInputElement>('Secret (API 1.2)');
const puts = (sent: { method: string; body: unknown }[]) =>
  sent.filter(({ method }) => method === 'PUT').map(({ body }) => body);

/** PUT /api/applications/7 answering `answer(body)`: by default, the body merged into `saved`. */
function stubApi(
  saved: Application,
  answer = (body: unknown) => jsonResponse(200, { ...saved, ...(body as object) }),
) {
  return stubOwnerApi(({ method, url, body }) =>
    method === 'PUT' && url.pathname === '/api/applications/7' ? answer(body) : undefined,
  );
}

/** The problem shown under `input`, announced and tied to it. */
function problemOf(input: HTMLInputElement): string | null {
  const describedBy = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const errorId = describedBy.find((describing) => describing.endsWith('-problem'));
  const problem = errorId ? document.getElementById(errorId) : null;
  if (!problem) return null;
  expect(problem.getAttribute('role')).toBe('alert');
  expect(input.getAttribute('aria-invalid')).toBe('true');
  return problem.textContent;
}

describe('KeyauthCompatibilityCard', () => {
  resetEachTest(stubResizeObserver);

  it('turns compatibility on with one switch, then shows what the server filled in', async () => {
    const sent = stubApi(orbit, () => jsonResponse(200, orbitOn));
    renderSignedIn(<KeyauthCompatibilityCard application={orbit} />);
    expect(enabledSwitch().getAttribute('aria-checked')).toBe('false');
    expect(screen.getByText(`${window.location.origin}/api/1.2/`)).toBeTruthy();
    expect(screen.getByText(/None yet: one is generated/)).toBeTruthy();
    expect(screen.queryByTestId('keyauth-public-key')).toBeNull();

    fireEvent.click(enabledSwitch());
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(puts(sent)).toEqual([
      {
        keyauthCompatibility: true,
        keyauthOwnerId: '',
        keyauthName: '',
        keyauthSessionHours: 6,
      },
    ]);
    await waitFor(() => expect(ownerIdField().value).toBe('Gen3rated0'));
    expect(nameField().value).toBe('Orbit');
    expect(hoursField().value).toBe('6');
  });

  it('shows the secret masked until asked, in its field and in the program snippet', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    stubApi(orbitOn);
    renderSignedIn(<KeyauthCompatibilityCard application={orbitOn} />);
    expect(secretBox().type).toBe('password');
    expect(secretBox().value).toBe(SECRET);
    const origin = window.location.origin;
    const api12 = screen.getByRole('button', { name: 'Copy the API 1.2 settings' }).parentElement!;
    expect(api12.textContent).not.toContain(SECRET);
    expect(api12.textContent).toContain('ownerid = "Gen3rated0"');
    expect(api12.textContent).toContain(`url     = "${origin}/api/1.2/"`);

    fireEvent.click(screen.getByRole('button', { name: 'Show KeyAuth secret' }));
    expect(secretBox().type).toBe('text');
    expect(api12.textContent).toContain(`secret  = "${SECRET}"`);
    fireEvent.click(screen.getByRole('button', { name: 'Hide KeyAuth secret' }));
    expect(secretBox().type).toBe('password');

    // Copied whole, the secret included, though shown masked (as Copy API key does).
    fireEvent.click(screen.getByRole('button', { name: 'Copy the API 1.2 settings' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(writeText).toHaveBeenCalledWith(
      [
        'name    = "Orbit"',
        'ownerid = "Gen3rated0"',
        `secret  = "${SECRET}"`,
        `url     = "${origin}/api/1.2/"`,
      ].join('\n'),
    );
    const api13 = screen.getByRole('button', { name: 'Copy the API 1.3 settings' }).parentElement!;
    expect(api13.textContent).toContain(`url     = "${origin}/api/1.3/"`);
    expect(api13.textContent).not.toContain('secret');
  });

  it('shows the public key that replaces KeyAuth’s, with Copy', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    stubApi(orbitOn);
    renderSignedIn(<KeyauthCompatibilityCard application={orbitOn} />);
    const key = screen.getByTestId('keyauth-public-key');
    expect(key.textContent).toBe(orbitOn.signingPublicKey);
    expect(screen.getByText(KEYAUTH_PUBLIC_KEY_HINT).id).toBe(key.getAttribute('aria-describedby'));
    fireEvent.click(screen.getByRole('button', { name: 'Copy the API 1.3 public key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(orbitOn.signingPublicKey));
  });

  it('links to the Docs page’s “Moving from KeyAuth” section, in the app', () => {
    stubApi(orbit);
    const { location } = renderSignedIn(<KeyauthCompatibilityCard application={orbit} />);
    const link = screen.getByRole('link', { name: 'Moving from KeyAuth' });
    expect(link.getAttribute('href')).toBe('/docs#moving-from-keyauth');
    // Part of the switch's description, so it is read with the switch it explains.
    expect(enabledSwitch().getAttribute('aria-describedby')).toBe(link.closest('p')!.id);
    fireEvent.click(link);
    expect(location.history.at(-1)).toBe('/docs#moving-from-keyauth');
  });

  it('shows no program settings before there is a secret to put in them', () => {
    stubApi(orbit);
    const prepared = { ...orbit, keyauthOwnerId: 'Prepared01', keyauthName: 'Orbit' };
    renderSignedIn(<KeyauthCompatibilityCard application={prepared} />);
    expect(ownerIdField().value).toBe('Prepared01');
    expect(screen.getByText(/what is missing \(an owner ID, a secret\) is generated/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copy the API 1.2 settings' })).toBeNull();
  });

  it('asks before turning compatibility off, and sends nothing when cancelled', async () => {
    const sent = stubApi(orbitOn);
    renderSignedIn(<KeyauthCompatibilityCard application={orbitOn} />);
    fireEvent.click(enabledSwitch());
    fireEvent.click(saveButton());
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Turn off KeyAuth compatibility?',
    });
    expect(dialog.textContent).toContain(KEYAUTH_TURN_OFF_WARNING);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(puts(sent)).toEqual([]);

    fireEvent.click(saveButton());
    fireEvent.click(
      within(
        await screen.findByRole('alertdialog', { name: 'Turn off KeyAuth compatibility?' }),
      ).getByRole('button', { name: 'Turn Off' }),
    );
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(puts(sent)).toEqual([
      {
        keyauthCompatibility: false,
        keyauthOwnerId: 'Gen3rated0',
        keyauthName: 'Orbit',
        keyauthSessionHours: 6,
      },
    ]);
  });

  it('saves changed fields without asking while compatibility stays on', async () => {
    const sent = stubApi(orbitOn);
    renderSignedIn(<KeyauthCompatibilityCard application={orbitOn} />);
    fireEvent.change(hoursField(), { target: { value: ' 24 ' } });
    fireEvent.change(nameField(), { target: { value: 'Orbit Pro' } });
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(puts(sent)).toEqual([
      {
        keyauthCompatibility: true,
        keyauthOwnerId: 'Gen3rated0',
        keyauthName: 'Orbit Pro',
        keyauthSessionHours: 24,
      },
    ]);
  });

  it.each([
    ['an owner id of 9 characters', ownerIdField, 'Short1234', 'must be 10 letters or digits'],
    ['an owner id with a dash', ownerIdField, 'Abc-efghij', 'must be 10 letters or digits'],
    ['0 hours', hoursField, '0', 'Session hours must be at least 1'],
    ['721 hours', hoursField, '721', 'Session hours must be at most 720'],
    ['a day', hoursField, 'a day', 'Session hours must be a whole number'],
    ['a blank name while on', nameField, ' ', KEYAUTH_NEEDS_IDENTITY],
  ])('refuses %s at its field, and sends nothing', async (_case, input, typed, message) => {
    const sent = stubApi(orbitOn);
    renderSignedIn(<KeyauthCompatibilityCard application={orbitOn} />);
    fireEvent.change(input(), { target: { value: typed } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(problemOf(input())).toContain(message));
    expect(document.activeElement).toBe(input());
    expect(puts(sent)).toEqual([]);

    // Typing again clears it.
    fireEvent.change(input(), { target: { value: 'x' } });
    expect(problemOf(input())).toBeNull();
    expect(input().hasAttribute('aria-invalid')).toBe(false);
  });

  it('lets blank identity fields go when turning compatibility on: the server fills them', async () => {
    const sent = stubApi(orbit, () => jsonResponse(200, orbitOn));
    renderSignedIn(<KeyauthCompatibilityCard application={orbit} />);
    fireEvent.click(enabledSwitch());
    fireEvent.change(nameField(), { target: { value: 'Orbit Legacy' } });
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(puts(sent)).toHaveLength(1);
  });

  it('shows a taken owner id and name at the owner id field, and in a toast', async () => {
    stubApi(orbitOn, () => jsonResponse(409, { message: KEYAUTH_NAME_TAKEN, code: 'CONFLICT' }));
    renderSignedIn(<KeyauthCompatibilityCard application={orbitOn} />);
    fireEvent.change(ownerIdField(), { target: { value: 'Taken12345' } });
    fireEvent.click(saveButton());
    expect(await findToast(KEYAUTH_NAME_TAKEN)).toBeTruthy();
    await waitFor(() => expect(problemOf(ownerIdField())).toBe(KEYAUTH_NAME_TAKEN));
    expect(document.activeElement).toBe(ownerIdField());
    expect(problemOf(nameField())).toBeNull();
  });

  it("places a server's field refusal at its field, and any other in the card", async () => {
    let answer = jsonResponse(400, {
      message: 'Session hours must be at most 720',
      code: 'BAD_REQUEST',
      fields: [{ field: 'keyauthSessionHours', message: 'Session hours must be at most 720' }],
    });
    stubApi(orbitOn, () => answer);
    renderSignedIn(<KeyauthCompatibilityCard application={orbitOn} />);
    fireEvent.click(saveButton());
    await waitFor(() => expect(problemOf(hoursField())).toBe('Session hours must be at most 720'));

    answer = jsonResponse(403, { message: 'You may not change applications', code: 'FORBIDDEN' });
    fireEvent.click(saveButton());
    await waitFor(() =>
      expect(
        screen.getAllByRole('alert').some(({ textContent }) => {
          return textContent === 'You may not change applications';
        }),
      ).toBe(true),
    );
    expect(problemOf(hoursField())).toBeNull();
  });

  it('replaces the secret with one pasted from KeyAuth, checked first', async () => {
    const pasted = 'AB'.repeat(32);
    const sent = stubApi(orbitOn, () =>
      jsonResponse(200, { ...orbitOn, keyauthSecret: pasted.toLowerCase() }),
    );
    renderSignedIn(<KeyauthCompatibilityCard application={orbitOn} />);
    fireEvent.click(screen.getByRole('button', { name: "Use KeyAuth's Secret" }));
    const pasteField = () => field('Secret from KeyAuth');
    expect(document.activeElement).toBe(pasteField());

    fireEvent.change(pasteField(), { target: { value: 'not hex' } });
    fireEvent.click(saveButton());
    await waitFor(() =>
      expect(problemOf(pasteField())).toBe('KeyAuth secret must be 64 hex characters'),
    );
    expect(puts(sent)).toEqual([]);

    fireEvent.change(pasteField(), { target: { value: ` ${pasted} ` } });
    fireEvent.click(saveButton());
    expect(await findToast('Application updated successfully')).toBeTruthy();
    expect(puts(sent)).toEqual([
      {
        keyauthCompatibility: true,
        keyauthOwnerId: 'Gen3rated0',
        keyauthName: 'Orbit',
        keyauthSessionHours: 6,
        keyauthSecret: pasted,
      },
    ]);
    // Saved, the field folds away again.
    await waitFor(() =>
      expect(screen.queryByRole('textbox', { name: 'Secret from KeyAuth' })).toBeNull(),
    );
  });

  it('keeps the current secret when the pasted one is given up, and returns focus', () => {
    const sent = stubApi(orbitOn);
    renderSignedIn(<KeyauthCompatibilityCard application={orbitOn} />);
    fireEvent.click(screen.getByRole('button', { name: "Use KeyAuth's Secret" }));
    fireEvent.change(field('Secret from KeyAuth'), { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Keep the Current Secret' }));
    expect(screen.queryByRole('textbox', { name: 'Secret from KeyAuth' })).toBeNull();
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: "Use KeyAuth's Secret" }),
    );
    expect(puts(sent)).toEqual([]);
  });
});
