import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS } from './browser.js';

/**
 * What the phone-width page tests (issue 25) share: a signed-in 390 × 844 page, and the two
 * checks of a page at that width (it never scrolls sideways; every action button is inside the
 * viewport), plus every table cell labelled with its column (the stacked rows hide the heading
 * row), with a full-page screenshot in test-artifacts/.
 */
export const PHONE = { width: 390, height: 844 } as const;

export async function signInOnPhone(
  browser: Browser,
  origin: string,
  area: 'portal' | 'console',
  who: { email: string; password: string },
  viewport: { width: number; height: number } = PHONE,
): Promise<Page> {
  const page = await browser.newPage({ viewport, isMobile: viewport.width === PHONE.width });
  page.setDefaultTimeout(15_000);
  await page.goto(`${origin}/${area}/signin`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: /Sign in/ }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/signin'));
  return page;
}

/** The page as it is now: widths that overflow, and action buttons (or button links) outside 0…390. */
export async function phoneProblems(page: Page, where: string, shot: string): Promise<string[]> {
  await page.screenshot({ path: path.join(ARTIFACTS, `phone-${shot}.png`), fullPage: true });
  return page.evaluate((label) => {
    interface Box {
      left: number;
      right: number;
      width: number;
    }
    interface Element {
      textContent: string | null;
      getBoundingClientRect(): Box;
    }
    const doc = (
      globalThis as unknown as {
        document: {
          documentElement: { scrollWidth: number };
          querySelectorAll(selector: string): Iterable<Element>;
        };
      }
    ).document;
    const found: string[] = [];
    const width = doc.documentElement.scrollWidth;
    if (width > 390) found.push(`${label}: scrollWidth ${width}`);
    for (const el of doc.querySelectorAll('main button, main a.button, main input[type=submit]')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.left < 0 || box.right > 390) {
        found.push(
          `${label}: "${String(el.textContent).trim()}" at ${Math.round(box.left)}…${Math.round(box.right)}`,
        );
      }
    }
    let unlabelled = 0;
    for (const _ of doc.querySelectorAll('main tbody td:not([data-label])')) unlabelled += 1;
    if (unlabelled > 0) found.push(`${label}: ${unlabelled} table cells without their column's data-label`);
    return found;
  }, where);
}

/** Goes to `url` (on `origin`), then {@link phoneProblems}. */
export async function phoneProblemsAt(
  page: Page,
  origin: string,
  url: string,
  shot: string,
): Promise<string[]> {
  await page.goto(`${origin}${url}`);
  return phoneProblems(page, url, shot);
}
