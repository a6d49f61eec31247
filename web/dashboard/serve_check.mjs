// What the dashboard's browser checks (check_dashboard.mjs,
// check_attached.mjs) share: the command line and Debian's headless
// Chromium through playwright-core (web/report's copy), or ctest's skip;
// `aifabric serve` started on a free loopback port and stopped at the end;
// a page whose console errors, page errors and requests anywhere but the
// server (aborted) become problems; a watchdog; and the run that prints
// the verdict and exits 0 or 1.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

export const kChromium = '/usr/bin/chromium';
export const kTimeoutMs = 60000;

// The aifabric binary named on the command line (usage and exit 2 without
// it) and playwright-core's chromium; exits 77 when there is no Chromium.
export function BinaryAndChromium(script) {
  const binary = process.argv[2];
  if (!binary) {
    console.error(`usage: node ${script} AIFABRIC_BINARY`);
    process.exit(2);
  }
  if (!fs.existsSync(kChromium)) {
    console.log(`SKIP: no Chromium at ${kChromium} (scripts/setup.sh test installs Debian's chromium)`);
    process.exit(77);
  }
  const require = createRequire(new URL('../report/package.json', import.meta.url));
  return {binary, chromium: require('playwright-core').chromium};
}

export class ServeCheck {
  // `name` heads the verdict ("FAIL name: ..."); after `watchdogMs` with
  // no verdict the check fails.
  constructor(name, watchdogMs) {
    this.name = name;
    this.problems = [];
    this.browser = null;
    this.cleanups = [];
    const watchdog = setTimeout(async () => {
      console.log(`FAIL ${name}: no verdict after ${watchdogMs / 1000} s`);
      await this.Cleanup();
      process.exit(1);
    }, watchdogMs);
    watchdog.unref();
  }

  // Runs `cleanup` at the end, in reverse order of deferral.
  Defer(cleanup) { this.cleanups.push(cleanup); }

  async Cleanup() {
    if (this.browser) await this.browser.close().catch(() => {});
    for (const c of this.cleanups.reverse()) await c();
    this.cleanups = [];
  }

  // `aifabric serve --port 0 ARGS...`, stopped (SIGTERM) at the end;
  // resolves the port it printed.
  StartServer(binary, args) {
    return new Promise((resolve, reject) => {
      const server = spawn(binary, ['serve', '--port', '0', ...args], {stdio: ['ignore', 'ignore', 'pipe']});
      this.Defer(async () => {
        if (server.exitCode !== null) return;
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await exited;
      });
      let err = '';
      server.stderr.on('data', (chunk) => {
        err += chunk;
        const m = /serving the dashboard at http:\/\/127\.0\.0\.1:(\d+)\/ /.exec(err);
        if (m) resolve(Number(m[1]));
      });
      server.once('exit', (code) => reject(new Error(`aifabric serve exited with ${code}: ${err}`)));
    });
  }

  async Launch(chromium) {
    this.browser = await chromium.launch({
      executablePath: kChromium, headless: true, timeout: kTimeoutMs,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
             '--disable-component-update', '--disable-sync'],
    });
  }

  // A page of the launched browser; `page.requests` lists every request
  // it made.
  async CheckedPage(origin) {
    const problems = this.problems;
    const page = await this.browser.newPage({viewport: {width: 1400, height: 1000}});
    page.setDefaultTimeout(kTimeoutMs);
    page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
    page.on('pageerror', (e) => problems.push('page error: ' + e.message));
    page.requests = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      page.requests.push(route.request());
      if (url.startsWith(origin + '/')) return route.continue();
      problems.push('request off the server: ' + url);
      return route.abort();
    });
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(origin + '/') && !url.startsWith('data:')) problems.push('request off the server: ' + url);
    });
    return page;
  }

  // Runs `check` (true: passed; it prints its own "ok"/"FAIL" line), an
  // exception as a failure with the problems so far, then cleans up and
  // exits.
  async Run(check) {
    let ok = false;
    try {
      ok = await check();
    } catch (e) {
      console.log(`FAIL ${this.name}: ${e.message}${this.problems.length ? '; ' + this.problems.join('; ') : ''}`);
    }
    await this.Cleanup();
    process.exit(ok ? 0 : 1);
  }
}
