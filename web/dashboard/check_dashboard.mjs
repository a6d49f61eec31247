// Browser check of `aifabric serve`'s dashboard: node check_dashboard.mjs AIFABRIC_BINARY
// Starts the server on a free loopback port over a fresh store, opens the
// dashboard in Debian's headless Chromium (playwright-core, web/report's
// copy), starts the quickstart from the page (its permutation grown to
// 96 MiB a flow with the page's override field, so the packet-level run
// lasts seconds and its snapshots arrive while it goes), and fails unless:
//  - the graph has as many edges as the fabric has links: links.csv's rows
//    (one per direction) / 2, and the closed form of the quickstart's
//    rail-optimized fabric from the example's own figures;
//  - the live figures changed at least three times while the run was
//    running;
//  - the latency chart drew the flow-completion p50 and p99 series (a
//    point per snapshot in which flows completed, at least one, every
//    value above 0) beside the queue delay;
//  - the highlighted link is the top finding (most severe, first of
//    equals) of the run's diagnosis.json, fetched through the API;
//  - the page logged no console error, threw nothing, and asked for
//    nothing but the server (every request is intercepted; others are
//    aborted and fail the check).
// Exits 0 on success, 1 on failure, 77 (ctest's skip) when there is no
// Chromium at /usr/bin/chromium.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BinaryAndChromium, ServeCheck, kTimeoutMs } from './serve_check.mjs';

const kMinChanges = 3;
// Grows each permutation flow from 4 MiB to 96 MiB: about 4.7 s of wall
// time at packet level on an idle machine (8.9 ms simulated, every flow
// done before the quickstart's 10 ms stop), so about 18 snapshots at the
// server's 250 ms. At 32 MiB the run lasted 1.6 s, and on a loaded
// machine the page saw only 2 changes.
const kOverride = 'workload.0.permutation.size=96MiB';

const { binary, chromium } = BinaryAndChromium('check_dashboard.mjs');
const check = new ServeCheck('dashboard', 4 * kTimeoutMs);
const problems = check.problems;

// `aifabric serve --workers 1 ARGS...` over a fresh store; resolves its port.
function StartServer(args) {
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'aifabric-dashboard-'));
  check.Defer(async () => fs.rmSync(store, {recursive: true, force: true}));
  return check.StartServer(binary, ['--store', store, '--workers', '1', ...args]);
}

const CheckedPage = (origin) => check.CheckedPage(origin);

function PairKey(a, b) { return a < b ? a + '|' + b : b + '|' + a; }

// The quickstart's links in closed form (src/fabric/rail_optimized_builder.h):
// hosts = servers * gpus_per_server * per_gpu NICs, one link each; one
// leaf per rail per hosts_per_leaf servers, each with hosts_per_leaf
// downlinks and hosts_per_leaf / oversubscription uplinks to the spines.
function ClosedFormLinks(yaml) {
  const num = (re) => {
    const m = re.exec(yaml);
    if (!m) throw new Error(`the quickstart has no ${re}`);
    return Number(m[1]);
  };
  const servers = num(/servers:\s*(\d+)/), gpus = num(/gpus_per_server:\s*(\d+)/);
  const perGpu = num(/per_gpu:\s*(\d+)/), perLeaf = num(/hosts_per_leaf:\s*(\d+)/);
  const over = num(/oversubscription:\s*([\d.]+)/);
  const rails = gpus * perGpu;
  const leaves = rails * Math.ceil(servers / Math.min(perLeaf, servers));
  const downlinks = Math.min(perLeaf, servers);
  return servers * rails + leaves * (downlinks / over);
}

async function Check() {
  const port = await StartServer([]);
  const origin = `http://127.0.0.1:${port}`;
  const api = async (p) => {
    const r = await fetch(origin + p);
    if (r.status !== 200) throw new Error(`GET ${p}: ${r.status}`);
    return r;
  };
  await check.Launch(chromium);
  const page = await CheckedPage(origin);
  await page.goto(origin + '/', {waitUntil: 'load'});
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const examples = (await (await api('/api/examples')).json()).examples;
  const quickstart = examples.findIndex((e) => e.name === 'quickstart');
  if (quickstart !== 0) problems.push(`the quickstart is example ${quickstart}, expected the first`);
  await page.selectOption('#example', String(quickstart));
  await page.fill('#overrides', kOverride);
  await page.click('#start-button');
  await page.waitForFunction(() => /^#\/run\/[^/]+$/.test(window.location.hash));
  const id = decodeURIComponent((await page.evaluate(() => window.location.hash)).split('/')[2]);

  // Every figures text the page shows while the run is running, recorded
  // in the page as it changes (so a busy machine loses none).
  await page.waitForSelector('#live-figures', {state: 'attached'});
  await page.evaluate(() => {
    const panel = document.getElementById('live-figures');
    window.seenFigures = [];
    window.fctPoints = {p50: [], p99: []};
    const record = () => {
      const box = document.querySelector('#latency-chart .chart');
      const chart = box ? echarts.getInstanceByDom(box) : null;
      if (chart) {
        for (const s of chart.getOption().series) {
          if (s.name === 'flow completion p50') window.fctPoints.p50 = s.data.map((d) => d[1]);
          if (s.name === 'flow completion p99') window.fctPoints.p99 = s.data.map((d) => d[1]);
        }
      }
      const status = (document.getElementById('run-status') || {dataset: {}}).dataset.status;
      const text = panel.textContent;
      const seen = window.seenFigures;
      if (status === 'running' && text && seen[seen.length - 1] !== text) seen.push(text);
    };
    new MutationObserver(record).observe(panel, {childList: true, subtree: true, characterData: true});
    record();
  });
  await page.waitForFunction(() => document.body.dataset.runEnded === 'true', null, {timeout: 2 * kTimeoutMs});
  const seen = await page.evaluate(() => window.seenFigures);
  const status = await page.evaluate(() => document.getElementById('run-status').dataset.status);
  if (status !== 'done') problems.push(`the run ended ${status}`);
  // Changes: the first figures shown, then each different one after it.
  const changes = seen.length - 1;
  if (changes < kMinChanges) problems.push(`the live figures changed ${changes} times while running, expected >= ${kMinChanges}`);
  const fct = await page.evaluate(() => window.fctPoints);
  for (const q of ['p50', 'p99']) {
    if (fct[q].length < 1) problems.push(`the latency chart drew no flow completion ${q} point`);
    if (fct[q].some((v) => !(v > 0))) problems.push(`a flow completion ${q} point is not above 0: ${fct[q]}`);
  }
  if (fct.p50.length !== fct.p99.length) problems.push(`${fct.p50.length} p50 points but ${fct.p99.length} p99 points`);

  const edges = await page.evaluate(() => {
    const chart = echarts.getInstanceByDom(document.getElementById('topology'));
    return chart ? chart.getOption().series[0].links.length : -1;
  });
  const linksCsv = await (await api(`/api/runs/${id}/files/links.csv`)).text();
  const rows = linksCsv.trim().split('\n').length - 1;
  const closed = ClosedFormLinks(examples[quickstart].body);
  if (rows !== 2 * closed) problems.push(`links.csv has ${rows} rows, expected 2 x ${closed} (the closed form)`);
  if (edges !== rows / 2) problems.push(`the graph has ${edges} edges, the fabric ${rows / 2} links`);

  const diagnosis = await (await api(`/api/runs/${id}/files/diagnosis.json`)).json();
  const findings = diagnosis.findings || [];
  let top = -1;
  findings.forEach((f, i) => { if (top < 0 || f.severity > findings[top].severity) top = i; });
  const expected = top >= 0 ? PairKey(findings[top].node, findings[top].port_peer) : '';
  const highlighted = await page.evaluate(() => document.getElementById('topology').dataset.highlight);
  if (!expected) problems.push('the run\'s diagnosis.json has no finding to highlight');
  if (highlighted !== expected) problems.push(`the highlighted link is "${highlighted}", diagnosis.json's top finding "${expected}"`);
  const listed = await page.evaluate(() => document.querySelectorAll('#findings li.finding').length);
  if (listed !== findings.length) problems.push(`the page lists ${listed} findings, diagnosis.json has ${findings.length}`);

  const requests = page.requests.length;
  await page.close();
  const token = await CheckToken();
  if (problems.length > 0) {
    console.log(`FAIL dashboard: ${problems.join('; ')}`);
    return false;
  }
  console.log(`ok dashboard: run ${id} done, ${edges} edges (links.csv ${rows} rows / 2, closed form ${closed}), ` +
              `figures changed ${changes} times while running, ${fct.p99.length} flow-completion points, highlighted ${highlighted} ` +
              `(${findings[top].kind}, diagnosis.json's top of ${findings.length}), ${requests} requests all to ${origin}; ` +
              token);
  return true;
}

// With --token: starting the quickstart asks for the token, and the POST
// carries it.
async function CheckToken() {
  const token = 'dashboard-check-token';
  const port = await StartServer(['--token', token]);
  const origin = `http://127.0.0.1:${port}`;
  const page = await CheckedPage(origin);
  await page.goto(origin + '/', {waitUntil: 'load'});
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await page.click('#start-button');
  await page.waitForSelector('#token-dialog[open]');
  await page.fill('#token-input', token);
  await page.click('#token-form button[type=submit]');
  await page.waitForFunction(() => /^#\/run\/[^/]+$/.test(window.location.hash));
  await page.waitForFunction(() => document.body.dataset.runEnded === 'true', null, {timeout: 2 * kTimeoutMs});
  const status = await page.evaluate(() => document.getElementById('run-status').dataset.status);
  const posts = page.requests.filter((r) => r.method() === 'POST');
  await page.close();
  if (status !== 'done') problems.push(`with --token, the run ended ${status}`);
  if (posts.length !== 1) problems.push(`with --token, the page sent ${posts.length} POSTs, expected 1`);
  const auth = posts.length > 0 ? posts[0].headers()['authorization'] : undefined;
  if (auth !== 'Bearer ' + token) problems.push(`with --token, the POST carried Authorization ${auth}`);
  return `with --token the page asked for it and its POST carried it (run ${status})`;
}

await check.Run(Check);
