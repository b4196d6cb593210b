import type { Application, ClientAuthResponse } from '@latchkey/contracts';
import { settle, seriousAxeViolations } from './support/layout-checks.ts';
import { consoleOriginHeaders, signInAsNewOwner } from './support/owners.ts';
import { expect, test, type Locator, type Page, type TestInfo } from './support/test.ts';

const THEMES = ['light', 'dark'] as const;
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
/** The console's own storage key (apps/console/src/lib/theme.ts). */
const THEME_STORAGE_KEY = 'latchkey-auth-theme';

async function clientCall(
  page: Page,
  application: Application,
  path: string,
  data: Record<string, unknown>,
): Promise<ClientAuthResponse> {
  const response = await page.request.post(`/api/v1/${path}`, {
    headers: { 'X-API-Key': application.apiKey },
    data,
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as ClientAuthResponse;
}

/**
 * Through the real client API: three registrations, two logins (one starting a session) and
 * one failed login, all within the last hour or so.
 */
async function seedActivity(page: Page): Promise<Application> {
  const created = await page.request.post('/api/applications', {
    headers: consoleOriginHeaders(page),
    data: { name: 'Chart Client', description: 'Activity to draw' },
  });
  expect(created.status()).toBe(201);
  const application = (await created.json()) as Application;
  for (const username of ['ada', 'grace', 'linus']) {
    expect(
      await clientCall(page, application, 'register', {
        username,
        email: `${username}@example.com`,
        password: 'battery staple',
        hwid: `PC-${username.toUpperCase()}`,
      }),
    ).toMatchObject({ success: true });
  }
  const login = (username: string, password: string) =>
    clientCall(page, application, 'login', {
      username,
      password,
      version: application.version || '1.0.0',
      hwid: `PC-${username.toUpperCase()}`,
    });
  const ada = await login('ada', 'battery staple');
  expect(ada).toMatchObject({ success: true });
  expect(await login('grace', 'battery staple')).toMatchObject({ success: true });
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
  for (const theme of THEMES) {
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [THEME_STORAGE_KEY, theme],
    );
    for (const viewport of VIEWPORTS) {
      const label = `${path} ${theme} ${viewport.width}px`;
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(path);
      const card = page.getByTestId('activity-chart').filter({ hasText: cardName });
      await expect(card.locator('canvas').first(), label).toBeVisible();
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
        theme === 'dark',
      );

      const plotBox = await card.getByTestId('activity-chart-plot').boundingBox();
      if (!plotBox || plotBox.x < 0 || plotBox.x + plotBox.width > viewport.width) {
        problems.push(`${label}: the plot does not fit (${JSON.stringify(plotBox)})`);
      }
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      if (overflow > 0) problems.push(`${label}: the page scrolls sideways by ${overflow} px`);
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
    }
  }
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
