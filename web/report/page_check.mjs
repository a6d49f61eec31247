// What the browser checks of aifabric's pages (check_report.mjs,
// ../plan/check_plan.mjs) share: Debian's headless Chromium through
// playwright-core (this folder's copy), a page opened from a file that
// records console errors, page errors and any request but file: and data:
// URLs (aborted), and a run over the files that prints one line each and
// exits 1 on any failure, with a watchdog against a hung browser.
import { chromium } from 'playwright-core';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const kChromium = '/usr/bin/chromium';
export const kTimeoutMs = 60000;

// Opens `file` in a new page whose problems go to `problems`, and waits for
// the page's script to set document.body.dataset.ready ("`what` not ready"
// otherwise). The caller closes the page.
export async function OpenCheckedPage(browser, file, problems, what) {
  const page = await browser.newPage({viewport: {width: 1280, height: 900}});
  page.setDefaultTimeout(kTimeoutMs);
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith('file:') && !url.startsWith('data:')) problems.push('network request: ' + url);
  });
  await page.route(/^(?!file:|data:)/, (route) => route.abort());
  await page.goto(pathToFileURL(path.resolve(file)).href, {waitUntil: 'load'});
  try {
    await page.waitForFunction(() => document.body.dataset.ready === 'true', null, {timeout: kTimeoutMs});
  } catch (e) {
    problems.push(`${what} not ready after ${kTimeoutMs / 1000} s`);
  }
  return page;
}

// Runs `check(browser, file)` (true when the file passed; it prints its own
// line) over the command line's files and exits: 0 if all passed, 1 if not,
// 2 with `usage` when no file is given.
export async function RunPageChecks(usage, check) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error(usage);
    process.exit(2);
  }
  const watchdog = setTimeout(() => {
    console.error(`FAIL: no verdict after ${(2 * kTimeoutMs) / 1000} s (Chromium hung?)`);
    process.exit(1);
  }, 2 * kTimeoutMs + files.length * kTimeoutMs);
  watchdog.unref();
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: kChromium,
      headless: true,
      timeout: kTimeoutMs,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
             '--disable-component-update', '--disable-sync'],
    });
  } catch (e) {
    console.log(`FAIL: could not start ${kChromium}: ${e.message}`);
    process.exit(1);
  }
  let ok = true;
  for (const file of files) {
    try {
      ok = (await check(browser, file)) && ok;
    } catch (e) {
      console.log(`FAIL ${file}: ${e.message}`);
      ok = false;
    }
  }
  await browser.close();
  process.exit(ok ? 0 : 1);
}
