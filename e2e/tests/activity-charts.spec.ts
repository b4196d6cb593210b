import type { Application } from '@latchkey/contracts';
import { clientCall, END_USER_PASSWORD, registerEndUsers } from './support/client-api.ts';
import {
  checkNoSidewaysScroll,
  DESKTOP,
  expectTheme,
  forEachTheme,
  forEachViewport,
  PHONE,
  seriousAxeViolations,
  settle,
} from './support/layout-checks.ts';
import { createApplication } from './support/owner-api.ts';
import { signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Locator, type Page, type TestInfo } from './support/test.ts';

/**
 * Through the real client API: three registrations, two logins (one starting a session) and
 * one failed login, all within the last hour or so.
 */
async function seedActivity(page: Page): Promise<Application> {
  const application = await createApplication(page, 'Chart Client', 'Activity to draw');
  await registerEndUsers(page, application, ['ada', 'grace', 'linus']);
  const login = (username: string, password: string) =>
    clientCall(page, application, 'login', {
      username,
      password,
      version: application.version || '1.0.0',
      hwid: `PC-${username.toUpperCase()}`,
    });
  const ada = await login('ada', END_USER_PASSWORD);
  expect(ada).toMatchObject({ success: true });
  expect(await login('grace', END_USER_PASSWORD)).toMatchObject({ success: true });
  expect(await login('linus', 'wrong password')).toMatchObject({ success: false });
  expect(
    await clientCall(page, application, 'session/track', {
      action: 'start',
      user_id: ada.user_id,
      session_token: ada.session_token,
      hwid: 'PC-ADA',
    }),
  ).toMatchObject({ success: true });
  return application;
}

/** Whether the plot's canvas has pixels of the theme's colour for logins (so: drawn, themed). */
async function hasPixelsOfLoginColour(card: Locator): Promise<boolean> {
  return card.evaluate((element) => {
    const canvas = element.querySelector('canvas');
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return false;
    const hex = getComputedStyle(element).getPropertyValue('--chart-logins').trim();
    const [r, g, b] = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16));
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    for (let index = 0; index < data.length; index += 4) {
      if (
        Math.abs(data[index]! - r!) <= 6 &&
        Math.abs(data[index + 1]! - g!) <= 6 &&
        Math.abs(data[index + 2]! - b!) <= 6 &&
        data[index + 3]! > 200
      ) {
        return true;
      }
    }
    return false;
  });
}

/** A column's sum over the table's rows, by the column's header. */
async function columnTotal(table: Locator, header: string): Promise<number> {
  const headers = await table.locator('thead th').allTextContents();
  const column = headers.findIndex((text) => text.toLowerCase() === header.toLowerCase());
  expect(column, `column ${header}`).toBeGreaterThan(0);
  const cells = await table.locator(`tbody tr td:nth-child(${column + 1})`).allTextContents();
  return cells.reduce((sum, text) => sum + Number(text.replace(/,/g, '')), 0);
}

/** One card in every theme and width: drawn with data, fits, axe clean, readable as a table. */
async function checkChart(
  page: Page,
  path: string,
  cardName: string,
  testInfo: TestInfo,
): Promise<string[]> {
  const problems: string[] = [];
  await forEachTheme(page, async (theme) => {
    await forEachViewport(
      page,
      async (viewport) => {
        const label = `${path} ${theme} ${viewport.width}px`;
        await page.goto(path);
        const card = page.getByTestId('activity-chart').filter({ hasText: cardName });
        await expect(card.locator('canvas').first(), label).toBeVisible();
        await settle(page);
        await expectTheme(page, theme);

        const plotBox = await card.getByTestId('activity-chart-plot').boundingBox();
        if (!plotBox || plotBox.x < 0 || plotBox.x + plotBox.width > viewport.width) {
          problems.push(`${label}: the plot does not fit (${JSON.stringify(plotBox)})`);
        }
        await checkNoSidewaysScroll(page, label, problems);
        await expect
          .poll(() => hasPixelsOfLoginColour(card), {
            message: `${label}: logins drawn in the theme's colour`,
          })
          .toBe(true);
        problems.push(...(await seriousAxeViolations(page, `${label} chart`)));
        await card.screenshot({
          path: testInfo.outputPath(`${path.replace(/\W+/g, '-')}-${theme}-${viewport.width}.png`),
        });

        await card.getByRole('button', { name: 'Show as table' }).click();
        const table = card.getByRole('table');
        await expect(table.locator('tbody tr')).toHaveCount(24);
        expect(await columnTotal(table, 'Logins'), `${label}: logins`).toBe(2);
        expect(await columnTotal(table, 'Failed logins'), `${label}: failed logins`).toBe(1);
        expect(await columnTotal(table, 'Registrations'), `${label}: registrations`).toBe(3);
        expect(await columnTotal(table, 'New sessions'), `${label}: new sessions`).toBe(1);
        problems.push(...(await seriousAxeViolations(page, `${label} table`)));
        await card.getByRole('button', { name: 'Show as chart' }).click();

        // The other ranges read by the day: today holds everything.
        await card.getByRole('button', { name: '7 days' }).click();
        await expect(card.getByText('Per day over the last 7 days (UTC days).')).toBeVisible();
        await expect(card.locator('canvas').first()).toBeVisible();
      },
      [DESKTOP, PHONE],
    );
  });
  return problems;
}

test.describe('activity charts', () => {
  test('render with data in both themes at 1280 and 390 px, with a table alternative, axe clean', async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000);
    // Animations only delay the checks; axe would otherwise see colours halfway through a fade.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await signInAsNewOwner(page, 'Chart Reader');
    const application = await seedActivity(page);

    const problems = [
      ...(await checkChart(page, `/app/${application.id}`, 'Activity', testInfo)),
      ...(await checkChart(page, '/dashboard', 'Activity across your applications', testInfo)),
    ];
    expect(problems).toEqual([]);
  });
});
